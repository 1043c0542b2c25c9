/**
 * The value evidence a caller's roles allow: only stored values of columns they may read, unmasked
 * and from tables they read whole, steer routing and schema linking and are shown as matches (the
 * index names tables `schema.table`; policies name them bare).
 */
import type { EvidenceOptions } from '../index';
import { roleScope, valuesVisible, type RolePolicies } from './rbac';

export function readableEvidence(policies: RolePolicies, roles: readonly string[]): EvidenceOptions {
  if (policies === null) return {};
  return {
    valueFilter: {
      scope: roleScope(policies, roles),
      accept: (m) =>
        valuesVisible(policies, roles, m.datasourceId, m.table.slice(m.table.lastIndexOf('.') + 1), m.column),
    },
  };
}
