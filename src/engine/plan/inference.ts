/**
 * What a plan's parts yield: the type of each expression, the columns of each relation in FROM
 * (tables, CTEs, derived tables) and the output columns of each query. These are one recursion
 * (a derived table's columns are its query's output types, and a scalar subquery's type is its
 * first output column), so they live together; name resolution itself is scope.ts.
 */
import type { Relation, RelColumn } from './scope';
import { Scope } from './scope';
import type { TableInfo } from '../datasources/schema';
import { scalarSignature, windowSignature } from './functions';
import type { AggregateFn, Body, Cte, Expr, From, InferredType, Query, Select } from './types';

export type { InferredType } from './types';

/**
 * A table's columns as relation columns, made once per table of a snapshot: a plan's scopes are
 * built several times over (validator, compiler, type inference), and copying every column of
 * every table each time was among the largest allocations of a run.
 */
const columnsOfTable = new WeakMap<TableInfo, readonly RelColumn[]>();

function tableColumns(t: TableInfo): readonly RelColumn[] {
  let columns = columnsOfTable.get(t);
  if (!columns) {
    columns = Object.freeze(t.columns.map((c) => Object.freeze({ name: c.name, kind: c.kind })));
    columnsOfTable.set(t, columns);
  }
  return columns;
}

/** Builds the relations of a FROM tree (left to right). */
export function relationsOf(from: From | null, scope: Scope): Relation[] {
  if (!from) return [];
  switch (from.kind) {
    case 'table': {
      const alias = from.alias ?? from.name;
      const cte = scope.findCte(from.name);
      if (cte) return [{ alias, table: null, columns: cte.columns, source: 'cte', name: cte.name }];
      const t = scope.findTable(from.name);
      return [
        {
          alias: from.alias ?? t?.name ?? from.name,
          table: t ?? null,
          columns: t ? tableColumns(t) : null,
          source: 'table',
          name: t?.name ?? from.name,
        },
      ];
    }
    case 'derived':
      return [
        {
          alias: from.alias,
          table: null,
          columns: outputColumns(from.query, scope),
          source: 'derived',
          name: from.alias,
        },
      ];
    case 'join':
      return [...relationsOf(from.left, scope), ...relationsOf(from.right, scope)];
  }
}

/** The scope a query's CTE definitions add (each CTE sees the ones before it). */
export function cteScope(ctes: readonly Cte[], scope: Scope): Scope {
  let s = scope;
  for (const c of ctes) s = s.withCtes([{ name: c.name, columns: outputColumns(c.query, s) }]);
  return s;
}

export function selectScope(sel: Select, scope: Scope): Scope {
  return scope.child(relationsOf(sel.from, scope));
}

/** Output columns of a query (names and inferred types); null when unknown. */
export function outputColumns(q: Query, scope: Scope): RelColumn[] | null {
  return bodyColumns(q.body, cteScope(q.with, scope));
}

function bodyColumns(body: Body, scope: Scope): RelColumn[] | null {
  switch (body.kind) {
    case 'query':
      return outputColumns(body, scope);
    case 'set_op':
      return bodyColumns(body.left, scope);
    case 'select': {
      const inner = selectScope(body, scope);
      const out: RelColumn[] = [];
      for (const it of body.columns) {
        if (it.expr.kind === 'star') {
          const rels =
            it.expr.table === null ? inner.relations : [inner.findRelation(it.expr.table)].filter((r) => !!r);
          for (const r of rels) {
            if (r?.columns === null || r === undefined) return null;
            out.push(...r.columns);
          }
          continue;
        }
        out.push({ name: it.alias ?? exprName(it.expr), kind: inferType(it.expr, inner) });
      }
      return out;
    }
  }
}

/** The name an engine gives an unaliased select item (a column's own name; otherwise a stable label). */
export function exprName(e: Expr): string {
  if (e.kind === 'column') return e.name;
  if (e.kind === 'aggregate') return e.arg ? `${e.fn}_${exprName(e.arg)}` : `${e.fn}`;
  return e.kind;
}

const NUMERIC: readonly InferredType[] = ['integer', 'decimal', 'float'];
export const isNumericType = (t: InferredType): boolean => NUMERIC.includes(t);
export const isTextType = (t: InferredType): boolean => t === 'text';

function widerNumeric(a: InferredType, b: InferredType): InferredType {
  if (a === 'unknown' || b === 'unknown') return 'unknown';
  if (a === 'null') return b;
  if (b === 'null') return a;
  if (a === 'float' || b === 'float') return 'float';
  if (a === 'decimal' || b === 'decimal') return 'decimal';
  if (a === 'integer' && b === 'integer') return 'integer';
  // Text in arithmetic is converted to a number (SQLite reads numeric text); treat as float.
  return 'float';
}

export function literalType(value: unknown, hint: string | null): InferredType {
  if (hint) return hint as InferredType;
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'float';
  return 'text';
}

export function inferType(e: Expr, scope: Scope): InferredType {
  switch (e.kind) {
    case 'column': {
      const r = scope.resolveColumn(e.table, e.name);
      return r.ok && r.column ? r.column.kind : 'unknown';
    }
    case 'literal':
      return literalType(e.value, e.type);
    case 'param':
      return 'unknown';
    case 'negate':
      return inferType(e.arg, scope);
    case 'arith':
      return widerNumeric(inferType(e.left, scope), inferType(e.right, scope));
    case 'concat':
      return 'text';
    case 'compare':
    case 'and':
    case 'or':
    case 'not':
    case 'in_list':
    case 'in_query':
    case 'exists':
    case 'between':
    case 'like':
    case 'is_null':
      return 'boolean';
    case 'case': {
      const types = [
        ...e.whens.map((w) => inferType(w.then, scope)),
        ...(e.else ? [inferType(e.else, scope)] : []),
      ];
      return types.find((t) => t !== 'null') ?? 'null';
    }
    case 'cast':
      return e.to;
    case 'func': {
      const sig = scalarSignature(e.name);
      if (sig.returns !== 'arg') return sig.returns;
      const first = e.args[0];
      return first ? inferType(first, scope) : 'unknown';
    }
    case 'aggregate':
      return aggregateType(e.fn, e.arg ? inferType(e.arg, scope) : 'integer');
    case 'window':
      return windowType(e, scope);
    case 'subquery': {
      const cols = outputColumns(e.query, scope);
      return cols?.[0]?.kind ?? 'unknown';
    }
    case 'star':
      return 'unknown';
  }
}

function windowType(e: Extract<Expr, { kind: 'window' }>, scope: Scope): InferredType {
  const sig = windowSignature(e.fn);
  if (sig.returns !== 'arg' && sig.returns !== 'aggregate') return sig.returns;
  const first = e.args[0];
  const argType = first ? inferType(first, scope) : 'unknown';
  return sig.returns === 'aggregate' ? aggregateType(e.fn as AggregateFn, argType) : argType;
}

export function aggregateType(fn: AggregateFn, arg: InferredType): InferredType {
  switch (fn) {
    case 'count':
      return 'integer';
    case 'avg':
      return 'float';
    case 'sum':
      return arg === 'integer'
        ? 'integer'
        : arg === 'decimal'
          ? 'decimal'
          : arg === 'unknown'
            ? 'unknown'
            : 'float';
    case 'min':
    case 'max':
      return arg;
  }
}
