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

/** A stable key part for caches keyed on what a caller may read. */
export function roleScope(policies: RolePolicies, roles: readonly string[]): string {
  if (policies === null) return '*';
  return [...new Set(roles.filter((r) => policies[r]))].sort().join(',') || '-';
}
