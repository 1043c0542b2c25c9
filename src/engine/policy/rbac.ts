/**
 * Role policies for the parts of the engine outside the plan validator: the datasource resolver
 * (which datasources a caller may be routed to), prompts (which tables lose their sample values)
 * and cache keys. The rules themselves live in one place, the plan layer's PolicyView, so the
 * validator and these answers can never disagree.
 */
import { PolicyView, type RolePolicies as PlanRolePolicies } from '../plan/validator/policy';

/** The config's `policies.roles`, or null when there is no roles section. */
export type RolePolicies = PlanRolePolicies | null;

export function canReadDatasource(
  policies: RolePolicies,
  roles: readonly string[],
  datasourceId: string,
): boolean {
  return new PolicyView(policies, roles, datasourceId).canReadDatasource();
}

export function canReadTable(
  policies: RolePolicies,
  roles: readonly string[],
  datasourceId: string,
  table: string,
): boolean {
  return new PolicyView(policies, roles, datasourceId).canReadTable(table);
}

export function canReadColumn(
  policies: RolePolicies,
  roles: readonly string[],
  datasourceId: string,
  table: string,
  column: string,
): boolean {
  return new PolicyView(policies, roles, datasourceId).canReadColumn(table, column);
}

/** The column comes back masked for these roles (it may be selected, never filtered or sorted on). */
export function isMaskedFor(
  policies: RolePolicies,
  roles: readonly string[],
  datasourceId: string,
  table: string,
  column: string,
): boolean {
  return new PolicyView(policies, roles, datasourceId).isMasked(table, column);
}

/**
 * Whether a column's stored values (introspection samples, the value index) may reach a prompt or
 * a listing for these roles: the column is readable, not masked, and its table is read whole. A
 * masked column's samples are its unmasked values, and a row-filtered table's samples and indexed
 * values come from every row, also those the caller may not see.
 */
export function valuesVisible(
  policies: RolePolicies,
  roles: readonly string[],
  datasourceId: string,
  table: string,
  column: string,
): boolean {
  const view = new PolicyView(policies, roles, datasourceId);
  if (!view.canReadColumn(table, column) || view.isMasked(table, column)) return false;
  return readsWholeTable(policies, roles, datasourceId, table);
}

/**
 * Whether some role of the caller reads every row of the table (no row filter on it): only then is
 * what introspection says of the whole table (its row estimate, its samples) the caller's to see.
 */
export function readsWholeTable(
  policies: RolePolicies,
  roles: readonly string[],
  datasourceId: string,
  table: string,
): boolean {
  const readers = new PolicyView(policies, roles, datasourceId).tableReaders(table);
  return !readers || readers.some((r) => !r.filtered);
}

/** A stable key part for caches keyed on what a caller may read. */
export function roleScope(policies: RolePolicies, roles: readonly string[]): string {
  if (policies === null) return '*';
  return [...new Set(roles.filter((r) => policies[r]))].sort().join(',') || '-';
}
