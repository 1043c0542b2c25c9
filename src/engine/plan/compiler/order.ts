/**
 * A query's ORDER BY made total. Engines return rows that tie on every ORDER BY key in their own
 * order, so `ORDER BY n DESC LIMIT 1` over a tie picks a different row on each engine, and a page
 * read with OFFSET can repeat or skip rows. Before compiling, every ORDER BY is extended with
 * tie-breakers (plan expressions, so every dialect compiles the same keys); where the ORDER BY
 * already determines the order nothing changes but the SQL text, because an appended key only
 * decides between rows that tie on every key before it.
 *
 * The tie-breakers reproduce SQLite's order where SQLite defines one (the plans' meaning is
 * SQLite's):
 * - grouped select: the group keys. SQLite reads the groups either from an index (the group keys
 *   are a prefix of a table's primary key, or hold all of it: ascending) or from a sorter whose
 *   direction it copies from the ORDER BY term at the same position when GROUP BY and ORDER BY
 *   have as many terms (select.c: "set the ASC/DESC flags in the GROUP BY to match those in the
 *   ORDER BY"), ascending otherwise. Its ORDER BY sort keeps that order among ties.
 * - plain select: the primary key of each table in FROM, left to right. SQLite returns ties in
 *   scan order: rowid order, which is key order for an INTEGER PRIMARY KEY or rows inserted in
 *   key order, and the key index's order when it scans that. Where rowid and key order differ,
 *   the key wins: it is the row identity every engine shares (no portable rowid exists).
 * - UNION / INTERSECT / EXCEPT: the output columns, ascending (SQLite extends a compound's ORDER
 *   BY with every result column not in it; UNION ALL gets the same, to be deterministic).
 * - otherwise (DISTINCT, derived tables, CTEs or tables without a primary key): the output
 *   columns, ascending. Rows that tie on every output column are indistinguishable in the
 *   result, so the result is the same list on every engine.
 * Keys are only added where the dialects accept them: with DISTINCT or a set operation only
 * output columns. A DISTINCT select ordered by an expression it does not select (PostgreSQL
 * refuses it) is compiled as the equivalent GROUP BY of its columns, each group ordered by its
 * first row in the ORDER BY's order (MIN for ascending, MAX for descending, NULL first when the
 * NULLs sort first and the group has one). SQLite itself gives each distinct row the sort key of
 * whichever of its rows it scans first, which depends on its plan, so there is no SQLite order to
 * keep there; this is the reading PostgreSQL's own advice (GROUP BY with MIN/MAX) gives.
 */
import * as b from '../build';
import { cteScope, relationsOf } from '../inference';
import { Scope, expressionKey, type Relation } from '../scope';
import { containsAggregate, walkExpr } from '../walk';
import type * as T from '../types';

export interface TotalOrder {
  readonly body: T.Body;
  readonly orderBy: readonly T.OrderItem[];
}

/** The body and ORDER BY to compile for `q` (`outer` is the scope the query is compiled in). */
export function totalOrder(q: T.Query, outer: Scope): TotalOrder {
  if (q.order_by.length === 0) return { body: q.body, orderBy: q.order_by };
  const scope = cteScope(q.with, outer);
  const body = q.body;
  if (body.kind !== 'select') {
    return { body, orderBy: [...q.order_by, ...outputNameKeys(q, scope)] };
  }
  const distinctRewrite = groupedDistinct(body, q.order_by, scope);
  const sel = distinctRewrite?.body ?? body;
  const orderBy = distinctRewrite?.orderBy ?? q.order_by;
  return { body: sel, orderBy: [...orderBy, ...selectTieBreakers(sel, orderBy, scope)] };
}

// ---------- select bodies ----------

function selectTieBreakers(sel: T.Select, orderBy: readonly T.OrderItem[], outer: Scope): T.OrderItem[] {
  const scope = outer.child(relationsOf(sel.from, outer));
  const have = new Set(orderBy.map((o) => expressionKey(resolveAlias(o.expr, sel), scope)));
  const missing = (items: T.OrderItem[]) => {
    const out: T.OrderItem[] = [];
    for (const it of items) {
      const k = expressionKey(resolveAlias(it.expr, sel), scope);
      if (!have.has(k)) {
        have.add(k);
        out.push(it);
      }
    }
    return out;
  };
  const grouped = sel.group_by.length > 0;
  const aggregated =
    !grouped &&
    (sel.columns.some((c) => containsAggregate(c.expr)) ||
      (sel.having !== null && containsAggregate(sel.having)));
  if (aggregated) return []; // one row
  if (grouped) {
    const selected = new Set(sel.columns.map((c) => expressionKey(c.expr, scope)));
    if (!sel.distinct || sel.group_by.every((g) => selected.has(expressionKey(g, scope)))) {
      return missing(groupKeyOrder(sel, orderBy, scope));
    }
    return missing(outputKeys(sel, scope));
  }
  if (!sel.distinct) {
    const pk = primaryKeyOrder(sel.from, scope);
    if (pk) return missing(pk);
  }
  return missing(outputKeys(sel, scope));
}

/** The group keys in the direction SQLite delivers groups (see the module comment). */
function groupKeyOrder(sel: T.Select, orderBy: readonly T.OrderItem[], scope: Scope): T.OrderItem[] {
  const fromIndex = groupsReadFromPrimaryKey(sel.group_by, scope);
  const sameLength = sel.group_by.length === orderBy.length;
  return sel.group_by.map((g, i) =>
    b.order(g, !fromIndex && sameLength ? (orderBy[i]?.direction ?? 'asc') : 'asc'),
  );
}

/** True when every group key is a column of one base table and they are a prefix of, or hold, its primary key. */
function groupsReadFromPrimaryKey(groupBy: readonly T.Expr[], scope: Scope): boolean {
  let rel: Relation | null = null;
  const names = new Set<string>();
  for (const g of groupBy) {
    if (g.kind !== 'column') return false;
    const r = scope.resolveColumn(g.table, g.name);
    if (!r.ok || r.depth > 0 || !r.column || !r.relation.table) return false;
    if (rel && rel !== r.relation) return false;
    rel = r.relation;
    names.add(r.column.name.toLowerCase());
  }
  const pk = (rel?.table?.primaryKey ?? []).map((c) => c.toLowerCase());
  if (pk.length === 0) return false;
  const prefix = new Set(pk.slice(0, names.size));
  const isPrefix = [...names].every((n) => prefix.has(n));
  return isPrefix || pk.every((c) => names.has(c));
}

/** Every base table's primary key in FROM order; null when a relation has none (or is not a table). */
function primaryKeyOrder(from: T.From | null, scope: Scope): T.OrderItem[] | null {
  const rels = scope.relations;
  if (!from || rels.length === 0) return null;
  const keys: T.OrderItem[] = [];
  for (const r of rels) {
    const pk = r.source === 'table' ? r.table?.primaryKey : undefined;
    if (!pk?.length) return null;
    for (const c of pk) keys.push(b.order(b.col(c, r.alias)));
  }
  return keys;
}

/** The select's output columns, ascending, as expressions it selects (so DISTINCT accepts them). */
function outputKeys(sel: T.Select, scope: Scope): T.OrderItem[] {
  const keys: T.OrderItem[] = [];
  for (const it of sel.columns) {
    const e = it.expr;
    if (e.kind === 'star') {
      const named = e.table === null ? undefined : scope.findRelation(e.table);
      const rels = e.table === null ? scope.relations : named ? [named] : [];
      for (const r of rels) for (const c of r.columns ?? []) keys.push(b.order(b.col(c.name, r.alias)));
      continue;
    }
    if (e.kind === 'literal' || e.kind === 'param' || hasWindow(e)) continue;
    keys.push(b.order(it.alias !== null ? b.col(it.alias) : e));
  }
  return keys;
}

// ---------- set operations and nested bodies ----------

/**
 * Output columns by name (all that ORDER BY may name there). Only names every engine gives alike:
 * aliases, plain columns and the columns of `*` (an unaliased expression is "count(*)" in one
 * engine and "count" in another); none at all when a name repeats.
 */
function outputNameKeys(q: T.Query, scope: Scope): T.OrderItem[] {
  const names = reliableOutputNames(q.body, scope);
  const lower = names.map((n) => n.toLowerCase());
  if (new Set(lower).size !== lower.length) return [];
  const have = new Set(
    q.order_by.map((o) => (o.expr.kind === 'column' ? o.expr.name.toLowerCase() : JSON.stringify(o.expr))),
  );
  return names.filter((n) => !have.has(n.toLowerCase())).map((n) => b.order(b.col(n)));
}

function reliableOutputNames(body: T.Body, scope: Scope): string[] {
  if (body.kind === 'set_op') return reliableOutputNames(body.left, scope);
  if (body.kind === 'query') return reliableOutputNames(body.body, cteScope(body.with, scope));
  const inner = scope.child(relationsOf(body.from, scope));
  const names: string[] = [];
  for (const it of body.columns) {
    const e = it.expr;
    if (it.alias !== null) names.push(it.alias);
    else if (e.kind === 'column') names.push(e.name);
    else if (e.kind === 'star') {
      const named = e.table === null ? undefined : inner.findRelation(e.table);
      const rels = e.table === null ? inner.relations : named ? [named] : [];
      for (const r of rels) names.push(...(r.columns ?? []).map((c) => c.name));
    }
  }
  return names;
}

// ---------- DISTINCT ordered by what it does not select ----------

function groupedDistinct(
  sel: T.Select,
  orderBy: readonly T.OrderItem[],
  outer: Scope,
): { body: T.Select; orderBy: readonly T.OrderItem[] } | null {
  if (!sel.distinct || sel.group_by.length || sel.having) return null;
  if (sel.columns.some((c) => c.expr.kind === 'star' || containsAggregate(c.expr) || hasNested(c.expr)))
    return null;
  const scope = outer.child(relationsOf(sel.from, outer));
  const selected = new Set(sel.columns.map((c) => expressionKey(c.expr, scope)));
  const isSelected = (o: T.OrderItem) => selected.has(expressionKey(resolveAlias(o.expr, sel), scope));
  if (orderBy.every(isSelected)) return null;
  const groupBy = sel.columns.map((c) => c.expr).filter((e) => e.kind !== 'literal' && e.kind !== 'param');
  if (groupBy.length === 0) return null;
  return {
    body: b.select({ columns: [...sel.columns], from: sel.from, where: sel.where, groupBy }),
    orderBy: orderBy.map((o) => (isSelected(o) ? o : b.order(firstRowKey(o), o.direction, o.nulls))),
  };
}

/** The sort key of a group's first row in the order `o` sorts rows. */
function firstRowKey(o: T.OrderItem): T.Expr {
  const extreme = b.agg(o.direction === 'asc' ? 'min' : 'max', o.expr);
  const nullsFirst = (o.nulls ?? (o.direction === 'asc' ? 'first' : 'last')) === 'first';
  if (!nullsFirst) return extreme; // MIN/MAX skip NULLs; NULL only when all are, and NULLs go last
  return b.caseWhen(
    null,
    [{ when: b.cmp('>', b.countStar(), b.agg('count', o.expr)), then: b.lit(null) }],
    extreme,
  );
}

// ---------- helpers ----------

/** A bare name that is an output alias stands for the aliased expression. */
function resolveAlias(e: T.Expr, sel: T.Select): T.Expr {
  if (e.kind !== 'column' || e.table !== null) return e;
  const it = sel.columns.find((c) => c.alias !== null && c.alias.toLowerCase() === e.name.toLowerCase());
  return it ? it.expr : e;
}

/** A window function or a subquery: neither belongs in a GROUP BY key. */
function hasNested(e: T.Expr): boolean {
  let found = false;
  walkExpr(e, (x) => {
    if (['window', 'subquery', 'exists', 'in_query'].includes(x.kind)) found = true;
  });
  return found;
}

function hasWindow(e: T.Expr): boolean {
  let found = false;
  walkExpr(e, (x) => {
    if (x.kind === 'window') found = true;
  });
  return found;
}
