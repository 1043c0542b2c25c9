/**
 * The value evidence a caller's roles allow: only stored values of columns they may read steer
 * routing and schema linking (the index names tables `schema.table`; policies name them bare).
 */
import type { EvidenceOptions } from '../index';
import { canReadColumn, roleScope, type RolePolicies } from './rbac';

export function readableEvidence(policies: RolePolicies, roles: readonly string[]): EvidenceOptions {
  if (policies === null) return {};
  return {
    valueFilter: {
      scope: roleScope(policies, roles),
      accept: (m) =>
        canReadColumn(policies, roles, m.datasourceId, m.table.slice(m.table.lastIndexOf('.') + 1), m.column),
    },
  };
}
