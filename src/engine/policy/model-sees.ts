/**
 * What the models are given of a caller's data (`policies.roles.<role>.model_sees`), the most
 * restrictive of the caller's roles winning:
 *
 * - `rows` (default): the answer model reads the first rows of each result;
 * - `aggregates`: it reads only the columns the plan computes with an aggregate (a count, a sum,
 *   an average, a minimum or maximum), never a row's own values; the other columns are named with
 *   their values withheld;
 * - `none`: it reads nothing of the results (the summary is built in code), and no prompt of the
 *   run carries a stored value: no sample or matched value in the planner's schema, no example
 *   (an example's literals are values of other questions and their results), and a database error
 *   sent back to the planner loses the values it quotes.
 */
import type { SchemaSnapshot } from '../datasources/schema';
import { cteScope, relationsOf } from '../plan/inference';
import { Scope as PlanScope, type Scope } from '../plan/scope';
import type { Body, Derived, From, Query, Select, TableRef } from '../plan/types';
import { containsAggregate } from '../plan/walk';
import type { RolePolicies } from './rbac';
import type { PolicyApplied } from './table-policies';

export type ModelSees = 'rows' | 'aggregates' | 'none';

const RESTRICTION: Record<ModelSees, number> = { rows: 0, aggregates: 1, none: 2 };

export interface ModelSeesDecision {
  readonly level: ModelSees;
  /** The role that set it; null for the default. */
  readonly role: string | null;
}

/** The most restrictive `model_sees` of the caller's roles (only roles the policies list count). */
export function modelSeesFor(policies: RolePolicies, roles: readonly string[]): ModelSeesDecision {
  let decision: ModelSeesDecision = { level: 'rows', role: null };
  if (!policies) return decision;
  for (const role of roles) {
    const level = Object.hasOwn(policies, role) ? policies[role]?.model_sees : undefined;
    if (level && RESTRICTION[level] > RESTRICTION[decision.level]) decision = { level, role };
  }
  return decision;
}

/** The `policies_applied` entry of a restriction, none for the default. */
export function modelSeesApplied(decision: ModelSeesDecision): PolicyApplied[] {
  return decision.role === null ? [] : [{ kind: 'model_sees', target: decision.level, role: decision.role }];
}

/**
 * For each output column of the plan, in result order, whether the plan computes it with an
 * aggregate: an expression holding one at the select's own level, or a column of a CTE or derived
 * table whose own column is one; for a set operation, a column both branches compute so. Null
 * when the columns cannot be told (a `*` over a relation of unknown columns).
 */
export function aggregateColumns(plan: Query, snapshot: SchemaSnapshot): boolean[] | null {
  return queryAggregates(plan, PlanScope.root(snapshot), new Map());
}

/** The CTE definitions visible at a point, by lower-cased name (inner ones shadow outer ones). */
type Ctes = ReadonlyMap<string, Query>;

function queryAggregates(q: Query, outer: Scope, visible: Ctes): boolean[] | null {
  const ctes = new Map(visible);
  for (const c of q.with) ctes.set(c.name.toLowerCase(), c.query);
  return bodyAggregates(q.body, cteScope(q.with, outer), ctes);
}

function bodyAggregates(body: Body, scope: Scope, ctes: Ctes): boolean[] | null {
  switch (body.kind) {
    case 'query':
      return queryAggregates(body, scope, ctes);
    case 'set_op': {
      const l = bodyAggregates(body.left, scope, ctes);
      const r = bodyAggregates(body.right, scope, ctes);
      if (!l || !r || l.length !== r.length) return null;
      return l.map((v, i) => v && r[i]!);
    }
    case 'select':
      return selectAggregates(body, scope, ctes);
  }
}

function selectAggregates(sel: Select, scope: Scope, ctes: Ctes): boolean[] | null {
  const inner = scope.child(relationsOf(sel.from, scope));
  const sourceFlags = (alias: string): { names: string[]; flags: boolean[] } | null => {
    const rel = inner.findRelation(alias);
    const from = rel ? fromNamed(sel.from, rel.alias) : null;
    let query: Query | null = null;
    if (from?.kind === 'derived') query = from.query;
    else if (from?.kind === 'table' && rel?.source === 'cte')
      query = ctes.get(from.name.toLowerCase()) ?? null;
    if (!query || !rel?.columns) return null;
    const flags = queryAggregates(query, scope, ctes);
    return flags && flags.length === rel.columns.length
      ? { names: rel.columns.map((c) => c.name), flags }
      : null;
  };
  const out: boolean[] = [];
  for (const it of sel.columns) {
    const e = it.expr;
    if (e.kind === 'star') {
      const rels = e.table === null ? inner.relations : [inner.findRelation(e.table)];
      for (const r of rels) {
        if (!r?.columns) return null;
        const src = sourceFlags(r.alias);
        out.push(...r.columns.map((_, i) => src?.flags[i] ?? false));
      }
      continue;
    }
    if (containsAggregate(e)) out.push(true);
    else if (e.kind === 'column') {
      const r = inner.resolveColumn(e.table, e.name);
      const src = r.ok && r.depth === 0 ? sourceFlags(r.relation.alias) : null;
      const i =
        src && r.ok
          ? src.names.findIndex((n) => n.toLowerCase() === (r.column?.name ?? e.name).toLowerCase())
          : -1;
      out.push(i >= 0 && src!.flags[i] === true);
    } else out.push(false);
  }
  return out;
}

/** The FROM item (table or derived table) whose alias is `alias`. */
function fromNamed(from: From | null, alias: string): TableRef | Derived | null {
  if (!from) return null;
  switch (from.kind) {
    case 'table':
      return (from.alias ?? from.name).toLowerCase() === alias.toLowerCase() ? from : null;
    case 'derived':
      return from.alias.toLowerCase() === alias.toLowerCase() ? from : null;
    case 'join':
      return fromNamed(from.left, alias) ?? fromNamed(from.right, alias);
  }
}

/**
 * The refiner's feedback without the values a database error quotes (`invalid input syntax for
 * type integer: "N/A"` quotes a stored value): a quoted word that is not a table or column name
 * of the schema becomes '…'. The validator's own messages quote only names and the model's own
 * plan, which are left as they are.
 */
export function withoutQuotedValues<F extends { readonly problems: readonly string[] }>(
  previous: F,
  snapshot: SchemaSnapshot,
): F {
  const names = new Set(
    snapshot.tables.flatMap((t) => [t.name, ...t.columns.map((c) => c.name)]).map((n) => n.toLowerCase()),
  );
  const scrub = (text: string) =>
    text.replace(/(['"`])((?:(?!\1).)*)\1/g, (whole, quote: string, inner: string) =>
      names.has(inner.toLowerCase()) ? whole : `${quote}…${quote}`,
    );
  return {
    ...previous,
    problems: previous.problems.map((p) => (p.startsWith(DATABASE_REJECTED) ? scrub(p) : p)),
  };
}

/** How the executor words a database's refusal of a statement (nodes/executor.ts). */
const DATABASE_REJECTED = 'the database rejected the SQL';
