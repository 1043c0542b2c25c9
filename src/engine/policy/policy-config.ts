/**
 * The checks of row filters and masks in the configuration, each naming the key at fault. A row
 * policy that does not apply fails open (a mistyped table would leave every row visible), so
 * anything that could make one silently not apply stops start-up:
 *
 * - when the config is read (`parseConfig`, also `nl2sql check-config`): every `rows` key is
 *   `<datasource>.<table>` and every mask `<datasource>.<table>.<column>` of a configured
 *   datasource; every filter is one boolean expression (plan/importer/row-filter.ts) whose
 *   `:user.<name>` attributes are declared in `api.attributes`;
 * - when a datasource is introspected at start-up: the table and columns exist, and the filter
 *   resolves against the table (an unknown column is named with the table's columns).
 *
 * A datasource introspected again later is checked at its next use (row-filters.ts): a filter
 * that no longer resolves refuses the table rather than read it whole.
 */
import { closest, distance } from 'fastest-levenshtein';
import type { ConfigProblem } from '../../config/config-error';
import type { RawConfig } from '../../config/schema';
import type { Dialect, SchemaSnapshot } from '../datasources/schema';
import { filterAttributes, importRowFilter, PlanError } from '../plan';
import { findByName } from '../plan/scope';
import type { RolePolicies } from './rbac';
import { resolveFilter } from './row-filters';

/** The checks that need no database: shapes, datasources, attributes, the filters' syntax. */
export function policyConfigProblems(cfg: RawConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const dialects = new Map<string, Dialect>((cfg.datasources ?? []).map((d) => [d.id, d.type]));
  const declared = cfg.api?.attributes ?? [];
  const known = (path: string, ds: string): boolean => {
    if (dialects.has(ds)) return true;
    const ids = [...dialects.keys()];
    problems.push({
      path,
      message: `unknown datasource '${ds}'${hint(ds, ids)} (configured: ${ids.join(', ') || 'none'}); a rule for no datasource would never apply`,
    });
    return false;
  };
  for (const [role, policy] of Object.entries(cfg.policies?.roles ?? {})) {
    const base = `policies.roles.${role}`;
    for (const [key, text] of Object.entries(policy.rows ?? {})) {
      const path = `${base}.rows.${key}`;
      const parts = key.split('.');
      if (parts.length !== 2 || parts.some((p) => !p.trim())) {
        problems.push({ path, message: 'a row filter is keyed <datasource>.<table>, e.g. shop.orders' });
        continue;
      }
      if (!known(path, parts[0]!)) continue;
      let attributes: string[];
      try {
        attributes = filterAttributes(importRowFilter(text, dialects.get(parts[0]!)!));
      } catch (err) {
        if (!(err instanceof PlanError)) throw err;
        problems.push({ path, message: err.message });
        continue;
      }
      for (const name of attributes.filter((a) => !declared.includes(a)))
        problems.push({
          path,
          message: `unknown attribute :user.${name}${hint(name, declared)}; declare it in api.attributes (declared: ${declared.join(', ') || 'none'})`,
        });
    }
    (policy.columns?.mask ?? []).forEach((entry, i) => {
      const path = `${base}.columns.mask[${i}]`;
      const parts = entry.split('.');
      if (parts.length !== 3 || parts.some((p) => !p.trim())) {
        problems.push({
          path,
          message: 'a mask names <datasource>.<table>.<column>, e.g. shop.customers.phone',
        });
        return;
      }
      known(path, parts[0]!);
    });
  }
  const api = cfg.api ?? {};
  if (api.attribute_header && !declared.length)
    problems.push({
      path: 'api.attributes',
      message: 'api.attribute_header is set but no attribute is declared; list the names the proxy sends',
    });
  return problems;
}

/** The checks against one datasource's schema, at start-up: tables, columns, filters that resolve. */
export function policySchemaProblems(policies: RolePolicies, snapshot: SchemaSnapshot): ConfigProblem[] {
  if (!policies) return [];
  const ds = snapshot.datasourceId.toLowerCase();
  const problems: ConfigProblem[] = [];
  const tableOf = (path: string, name: string) => {
    const table = findByName(snapshot.tables, name, (t) => t.name);
    if (!table) {
      const names = snapshot.tables.map((t) => t.name);
      problems.push({
        path,
        message: `datasource '${snapshot.datasourceId}' has no table '${name}'${hint(name, names)}`,
      });
    }
    return table;
  };
  for (const [role, policy] of Object.entries(policies)) {
    const base = `policies.roles.${role}`;
    for (const [key, text] of Object.entries(policy.rows ?? {})) {
      const [d, name] = key.split('.');
      if (d?.toLowerCase() !== ds || !name) continue;
      const path = `${base}.rows.${key}`;
      const table = tableOf(path, name);
      if (!table) continue;
      const filter = resolveFilter(text, table, snapshot);
      if (!filter.ok) problems.push({ path, message: filter.problem });
    }
    (policy.columns?.mask ?? []).forEach((entry, i) => {
      const [d, name, column] = entry.split('.');
      if (d?.toLowerCase() !== ds || !name || !column) return;
      const path = `${base}.columns.mask[${i}]`;
      const table = tableOf(path, name);
      if (table && !findByName(table.columns, column, (c) => c.name)) {
        const names = table.columns.map((c) => c.name);
        problems.push({
          path,
          message: `table '${table.name}' has no column '${column}'${hint(column, names)} (columns: ${names.join(', ')})`,
        });
      }
    });
  }
  return problems;
}

/** A close candidate, when there is one (a typo, not another name). */
function hint(name: string, candidates: readonly string[]): string {
  if (!candidates.length) return '';
  const best = closest(name, [...candidates]);
  return distance(name.toLowerCase(), best.toLowerCase()) <= Math.max(2, name.length / 3)
    ? `; did you mean '${best}'?`
    : '';
}
