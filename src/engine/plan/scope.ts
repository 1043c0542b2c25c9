/**
 * Name resolution and type inference over a plan, shared by the validator (which reports what
 * does not resolve) and the compiler (which needs canonical spellings and column types to keep
 * meaning across engines). Without a schema, tables have unknown columns and names pass through.
 *
 * Case rule: an exact match wins; otherwise a case-insensitive match that is unique. SQLite, MySQL
 * (on common platforms) and DuckDB compare identifiers case-insensitively, and PostgreSQL folds
 * unquoted names, so a plan written with another case still means the one object it names.
 */
import type { SchemaSnapshot, TableInfo, TypeKind } from '../datasources/schema';
import { FUNCTION_SIGNATURES } from './functions';
import type { Body, Cte, Expr, From, Query, Select } from './types';

export type InferredType = TypeKind | 'null' | 'unknown';

export interface RelColumn {
  readonly name: string;
  readonly kind: InferredType;
}

export interface Relation {
  /** The name a column reference uses for it (its alias, else its name). */
  readonly alias: string;
  /** The base table from the schema, when it is one. */
  readonly table: TableInfo | null;
  /** Columns in order; null when unknown (no schema, or a table the schema lacks). */
  readonly columns: readonly RelColumn[] | null;
  readonly source: 'table' | 'cte' | 'derived';
  /** The table or CTE name as the plan spelled it, resolved to its canonical spelling. */
  readonly name: string;
}

export function findByName<T>(items: readonly T[], name: string, nameOf: (t: T) => string): T | undefined {
  const exact = items.find((t) => nameOf(t) === name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  const matches = items.filter((t) => nameOf(t).toLowerCase() === lower);
  return matches.length === 1 ? matches[0] : undefined;
}

export interface CteDef {
  readonly name: string;
  readonly columns: readonly RelColumn[] | null;
}

export type ColumnResolution =
  | {
      readonly ok: true;
      readonly relation: Relation;
      readonly column: RelColumn | null;
      readonly depth: number;
    }
  | {
      readonly ok: false;
      readonly reason: 'unknown_table' | 'unknown_column' | 'ambiguous';
      readonly candidates: string[];
    };

/** The relations visible at one query level, chained to the enclosing level for correlation. */
export class Scope {
  constructor(
    readonly schema: SchemaSnapshot | null,
    readonly relations: readonly Relation[],
    readonly ctes: readonly CteDef[],
    readonly parent: Scope | null,
  ) {}

  static root(schema: SchemaSnapshot | null): Scope {
    return new Scope(schema, [], [], null);
  }

  findTable(name: string): TableInfo | undefined {
    return this.schema ? findByName(this.schema.tables, name, (t) => t.name) : undefined;
  }

  findCte(name: string): CteDef | undefined {
    return findByName(this.ctes, name, (c) => c.name) ?? this.parent?.findCte(name);
  }

  withCtes(ctes: readonly CteDef[]): Scope {
    return new Scope(this.schema, this.relations, [...ctes, ...this.ctes], this.parent);
  }

  /** A child scope for a nested query whose FROM gives `relations`. */
  child(relations: readonly Relation[]): Scope {
    return new Scope(this.schema, relations, [], this);
  }

  findRelation(name: string): Relation | undefined {
    return findByName(this.relations, name, (r) => r.alias);
  }

  resolveColumn(table: string | null, name: string, depth = 0): ColumnResolution {
    if (table !== null) {
      const rel = this.findRelation(table);
      if (!rel) {
        if (this.parent) return this.parent.resolveColumn(table, name, depth + 1);
        return { ok: false, reason: 'unknown_table', candidates: this.allRelationNames() };
      }
      if (rel.columns === null) return { ok: true, relation: rel, column: null, depth };
      const c = findByName(rel.columns, name, (x) => x.name);
      if (!c) return { ok: false, reason: 'unknown_column', candidates: rel.columns.map((x) => x.name) };
      return { ok: true, relation: rel, column: c, depth };
    }
    // Every column reference of a plan comes here, several times over: no arrays unless ambiguous.
    let found: { rel: Relation; col: RelColumn } | null = null;
    let ambiguous = false;
    let unknownColumns: Relation | null = null;
    for (const rel of this.relations) {
      if (rel.columns === null) {
        unknownColumns ??= rel;
        continue;
      }
      const c = findByName(rel.columns, name, (x) => x.name);
      if (!c) continue;
      if (found) ambiguous = true;
      else found = { rel, col: c };
    }
    if (ambiguous) {
      // A join's equality makes SQLite accept `USING`-like duplicates only when qualified.
      const candidates: string[] = [];
      for (const rel of this.relations) {
        const c = rel.columns && findByName(rel.columns, name, (x) => x.name);
        if (c) candidates.push(`${rel.alias}.${c.name}`);
      }
      return { ok: false, reason: 'ambiguous', candidates };
    }
    if (found) return { ok: true, relation: found.rel, column: found.col, depth };
    if (unknownColumns) return { ok: true, relation: unknownColumns, column: null, depth };
    if (this.parent) {
      const outer = this.parent.resolveColumn(null, name, depth + 1);
      if (outer.ok) return outer;
    }
    return { ok: false, reason: 'unknown_column', candidates: this.allColumnNames() };
  }

  allRelationNames(): string[] {
    const own = this.relations.map((r) => r.alias);
    return this.parent ? [...own, ...this.parent.allRelationNames()] : own;
  }

  allColumnNames(): string[] {
    const own = this.relations.flatMap((r) => (r.columns ?? []).map((c) => c.name));
    return this.parent ? [...own, ...this.parent.allColumnNames()] : own;
  }
}

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
      const sig = FUNCTION_SIGNATURES[e.name];
      if (sig.returns !== 'arg') return sig.returns;
      const first = e.args[0];
      return first ? inferType(first, scope) : 'unknown';
    }
    case 'aggregate':
      return aggregateType(e.fn, e.arg ? inferType(e.arg, scope) : 'integer');
    case 'window': {
      if (['row_number', 'rank', 'dense_rank', 'ntile'].includes(e.fn)) return 'integer';
      if (['percent_rank', 'cume_dist'].includes(e.fn)) return 'float';
      const first = e.args[0];
      if (e.fn === 'count') return 'integer';
      const argType = first ? inferType(first, scope) : 'unknown';
      return ['sum', 'avg', 'min', 'max'].includes(e.fn) ? aggregateType(e.fn as 'sum', argType) : argType;
    }
    case 'subquery': {
      const cols = outputColumns(e.query, scope);
      return cols?.[0]?.kind ?? 'unknown';
    }
    case 'star':
      return 'unknown';
  }
}

export function aggregateType(fn: 'count' | 'sum' | 'avg' | 'min' | 'max', arg: InferredType): InferredType {
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

/** True when the expression contains an aggregate at this query level (not inside a subquery or window). */
export function containsAggregate(e: Expr): boolean {
  let found = false;
  walkExpr(e, (x) => {
    if (x.kind === 'aggregate') found = true;
    return x.kind !== 'aggregate' && x.kind !== 'window';
  });
  return found;
}

/**
 * Visits an expression tree at one query level: subqueries are not entered. `visit` returns false
 * to skip a node's children.
 */
export function walkExpr(e: Expr, visit: (x: Expr) => boolean | void): void {
  if (visit(e) === false) return;
  const kids: (Expr | null)[] = [];
  switch (e.kind) {
    case 'negate':
    case 'not':
      kids.push(e.arg);
      break;
    case 'arith':
    case 'compare':
      kids.push(e.left, e.right);
      break;
    case 'concat':
    case 'and':
    case 'or':
    case 'func':
      kids.push(...e.args);
      break;
    case 'in_list':
      kids.push(e.expr, ...e.values);
      break;
    case 'in_query':
      kids.push(e.expr);
      break;
    case 'between':
      kids.push(e.expr, e.low, e.high);
      break;
    case 'like':
      kids.push(e.expr, e.pattern);
      break;
    case 'is_null':
    case 'cast':
      kids.push(e.expr);
      break;
    case 'case':
      kids.push(e.operand, ...e.whens.flatMap((w) => [w.when, w.then]), e.else);
      break;
    case 'aggregate':
      kids.push(e.arg);
      break;
    case 'window':
      kids.push(...e.args, ...e.partition_by, ...e.order_by.map((o) => o.expr));
      break;
    case 'column':
    case 'literal':
    case 'param':
    case 'exists':
    case 'subquery':
    case 'star':
      break;
  }
  for (const k of kids) if (k) walkExpr(k, visit);
}

/**
 * Equal keys for two references to the same column however qualified (`t.a`, `a`, `T.A`);
 * structural otherwise. GROUP BY matching and ORDER BY tie-breakers compare expressions by it.
 */
export function expressionKey(e: Expr, scope: Scope): string {
  if (e.kind === 'column') {
    const r = scope.resolveColumn(e.table, e.name);
    if (r.ok)
      return `col:${r.depth}:${r.relation.alias.toLowerCase()}.${(r.column?.name ?? e.name).toLowerCase()}`;
    return `col:?:${(e.table ?? '').toLowerCase()}.${e.name.toLowerCase()}`;
  }
  return JSON.stringify(e);
}
