/**
 * Row filters (`policies.roles.<role>.rows`): each role's boolean expression over one table's
 * columns, read by the importer (plan/importer/row-filter.ts) and resolved against the table in a
 * datasource's schema snapshot. A filter is read once per snapshot (a re-introspected datasource
 * has a new snapshot, so its filters are read again against what the database now holds); one
 * that no longer resolves (a column was dropped) is kept as its problem, and the table is refused
 * to the roles it filters until an operator fixes it: a broken filter never reads as "all rows".
 *
 * Binding a filter for a caller turns each `:user.<name>` into the plan parameter `user.<name>`
 * with the caller's value, bound like every value; a filter whose attribute the caller lacks is
 * FALSE for that caller (it matches nothing, never everything).
 */
import type { SchemaSnapshot, TableInfo } from '../datasources/schema';
import {
  ATTRIBUTE_PARAM_PREFIX,
  filterAttributes,
  importRowFilter,
  PlanError,
  validatePlan,
  type PlanProblem,
} from '../plan';
import * as b from '../plan/build';
import type { Expr } from '../plan/types';
import { walkPlan } from '../plan/walk';

/** The caller's attributes (`api.attribute_header`, or `user_context.attributes`), by name. */
export type CallerAttributes = Readonly<Record<string, string>>;

/** A filter read against one table: its expression (columns qualified by the table), or what is wrong. */
export type ResolvedFilter =
  | { readonly ok: true; readonly expr: Expr; readonly attributes: readonly string[] }
  | { readonly ok: false; readonly problem: string };

const resolved = new WeakMap<SchemaSnapshot, Map<string, ResolvedFilter>>();

/** The filter `text` read against `table` of `snapshot` (memoised per snapshot). */
export function resolveFilter(text: string, table: TableInfo, snapshot: SchemaSnapshot): ResolvedFilter {
  let bySnapshot = resolved.get(snapshot);
  if (!bySnapshot) resolved.set(snapshot, (bySnapshot = new Map()));
  const key = `${table.name}\u0000${text}`;
  let found = bySnapshot.get(key);
  if (!found) {
    found = readFilter(text, table, snapshot);
    bySnapshot.set(key, found);
  }
  return found;
}

function readFilter(text: string, table: TableInfo, snapshot: SchemaSnapshot): ResolvedFilter {
  let expr: Expr;
  try {
    expr = importRowFilter(text, snapshot.dialect);
  } catch (err) {
    if (err instanceof PlanError) return { ok: false, problem: err.message };
    throw err;
  }
  // Resolved as the WHERE of a query over the table alone: an unknown column is named with the
  // table's columns, and no name can reach outside the row.
  const probe = b.query(b.select({ columns: [b.lit(1)], from: b.table(table.name), where: expr }));
  const result = validatePlan(probe, snapshot, { datasourceId: snapshot.datasourceId });
  if (result.problems.length) return { ok: false, problem: describe(result.problems) };
  return { ok: true, expr: qualified(expr, table.name), attributes: filterAttributes(expr) };
}

/** Every column of the filter qualified by the table's name, so the filter reads only that table. */
function qualified(expr: Expr, tableName: string): Expr {
  const copy = structuredClone<Expr>(expr);
  walkPlan(copy, (n) => {
    if (n.kind === 'column') (n as { table: string | null }).table = tableName;
  });
  return copy;
}

function describe(problems: readonly PlanProblem[]): string {
  return problems.map((p) => `${p.message} (${p.code})`).join('; ');
}

/**
 * The filter for one caller: its expression with the caller's attribute values as parameters
 * (added to `params`), or FALSE when the caller lacks one of its attributes.
 */
export function bindFilter(
  filter: Extract<ResolvedFilter, { ok: true }>,
  attributes: CallerAttributes,
  params: Record<string, string>,
): Expr {
  if (filter.attributes.some((name) => !Object.hasOwn(attributes, name))) return FALSE;
  for (const name of filter.attributes) params[`${ATTRIBUTE_PARAM_PREFIX}${name}`] = attributes[name]!;
  return filter.expr;
}

/** Matches no row (an empty OR compiles to the dialect's FALSE). */
export const FALSE: Expr = b.or();

/** Any of `filters`; null when one of them is null (that role reads every row). */
export function anyOf(filters: readonly (Expr | null)[]): Expr | null {
  if (filters.some((f) => f === null)) return null;
  const list = filters as Expr[];
  return list.length === 1 ? list[0]! : b.or(...list);
}
