/**
 * Which verified queries a caller is shown (MCP's list, the no-model match's and the model's
 * candidates, the planner's examples): only those whose plan the caller's policies clear, decided
 * by the same `decidePlan` that guards compilation. A query its datasource has no schema for yet
 * cannot be decided, so it is not shown.
 */
import type { SchemaSnapshot } from '../datasources/schema';
import type { Query } from '../plan/types';
import { planAllowed } from './plan-guard';
import type { RolePolicies } from './rbac';

export interface VerifiedPlan {
  readonly datasource_id: string;
  readonly plan: Query;
}

/** A predicate: may these roles run this verified query? */
export function verifiedVisibleTo(
  roles: readonly string[],
  policies: RolePolicies,
  snapshotOf: (datasourceId: string) => SchemaSnapshot | null | undefined,
): (vq: VerifiedPlan) => boolean {
  return (vq) => {
    const snapshot = snapshotOf(vq.datasource_id);
    return !!snapshot && planAllowed(vq.plan, { datasourceId: vq.datasource_id, roles, snapshot }, policies);
  };
}
