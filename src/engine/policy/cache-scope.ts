/**
 * The part of a plan cache key that says whose plans may be shared: the caller's role scope, and
 * where its roles' row filters read caller attributes, a digest of those attributes' values.
 *
 * Cached plans are stored as planned, without policies, and every use applies its own caller's
 * filters (plan-guard), so sharing a plan could never show rows it should not. The digest is there
 * for the planner's examples, which are drawn from the same cache: a cached plan's literals come
 * from another caller's question (a customer's name, a product) and, under row filters, may name
 * something only that caller can see. Callers share cached plans and examples only with callers
 * whose filters read the same attribute values; with no attribute in their filters, the role scope
 * alone decides, as before.
 */
import { createHash } from 'node:crypto';
import { roleScope, type RolePolicies } from './rbac';
import type { CallerAttributes } from './row-filters';

const ATTRIBUTE = /:user\.([A-Za-z_][A-Za-z0-9_]*)/g;

export function cacheScope(
  policies: RolePolicies,
  roles: readonly string[],
  attributes: CallerAttributes = {},
): string {
  const scope = roleScope(policies, roles);
  if (!policies) return scope;
  const names = new Set<string>();
  for (const role of roles) {
    const rows = Object.hasOwn(policies, role) ? policies[role]?.rows : undefined;
    for (const text of Object.values(rows ?? {})) for (const m of text.matchAll(ATTRIBUTE)) names.add(m[1]!);
  }
  if (!names.size) return scope;
  const values = [...names].sort().map((n) => [n, Object.hasOwn(attributes, n) ? attributes[n] : null]);
  const digest = createHash('sha256').update(JSON.stringify(values)).digest('hex').slice(0, 16);
  return `${scope}|${digest}`;
}
