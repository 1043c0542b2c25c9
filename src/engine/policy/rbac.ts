/**
 * Role policies (`policies.roles`): which datasources, tables and columns a role may read.
 * No roles section: every role reads everything. With one, an unlisted role reads nothing, and a
 * caller with several roles reads what any of them may. Tables are named `<datasource>.<table>`,
 * columns `<datasource>.<table>.<column>`; `*` matches any one name part (e.g. `shop.*.email`).
 * The plan validator enforces the table and column rules on plans; this module answers the
 * datasource rule and the questions prompts need (which tables lose their sample values).
 */
import type { RolePolicy } from '../../config/schema';

export type RolePolicies = Readonly<Record<string, RolePolicy>> | null;

export function canReadDatasource(policies: RolePolicies, roles: readonly string[], datasourceId: string): boolean {
  if (policies === null) return true;
  return policiesOf(policies, roles).some((p) => (p.datasources ? p.datasources.includes(datasourceId) || p.datasources.includes('*') : true));
}

export function canReadTable(policies: RolePolicies, roles: readonly string[], datasourceId: string, table: string): boolean {
  if (policies === null) return true;
  const name = `${datasourceId}.${table}`;
  return policiesOf(policies, roles).some((p) => {
    if (p.datasources && !p.datasources.includes(datasourceId) && !p.datasources.includes('*')) return false;
    return allowed(p.tables, name);
  });
}

export function canReadColumn(
  policies: RolePolicies,
  roles: readonly string[],
  datasourceId: string,
  table: string,
  column: string,
): boolean {
  if (policies === null) return true;
  const tableName = `${datasourceId}.${table}`;
  const name = `${tableName}.${column}`;
  return policiesOf(policies, roles).some((p) => {
    if (p.datasources && !p.datasources.includes(datasourceId) && !p.datasources.includes('*')) return false;
    return allowed(p.tables, tableName) && allowed(p.columns, name);
  });
}

/** A stable digest input for caches keyed on what a caller may read. */
export function roleScope(policies: RolePolicies, roles: readonly string[]): string {
  if (policies === null) return '*';
  return [...new Set(roles.filter((r) => policies[r]))].sort().join(',') || '-';
}

function policiesOf(policies: Readonly<Record<string, RolePolicy>>, roles: readonly string[]): RolePolicy[] {
  return roles.map((r) => policies[r]).filter((p): p is RolePolicy => p !== undefined);
}

function allowed(rule: { allow?: string[]; deny?: string[] } | undefined, name: string): boolean {
  if (!rule) return true;
  if (rule.deny?.some((pattern) => matches(pattern, name))) return false;
  if (rule.allow) return rule.allow.some((pattern) => matches(pattern, name));
  return true;
}

function matches(pattern: string, name: string): boolean {
  const p = pattern.toLowerCase().split('.');
  const n = name.toLowerCase().split('.');
  if (p.length > n.length) return false;
  // A table pattern also covers the table's columns (`shop.salaries` denies `shop.salaries.amount`).
  return p.every((part, i) => part === '*' || part === n[i]);
}
