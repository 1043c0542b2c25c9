/**
 * What the page needs to know about the caller and the service that no route of spec 4 tells: the
 * configured role source (so it can offer a role-header field), whether this caller may use the
 * admin routes (so it shows the LLM settings panel only then), and each datasource's sample
 * questions. It mirrors RolesGuard's decision; a test holds the two equal.
 */
import type { Request } from 'express';
import type { DatasourceRegistry } from '../../engine/datasources/registry';
import type { EngineConfig } from '../../engine/engine-config';
import { callerMayAdmin, resolveRoles, roleSourceConfigured } from '../common/role-resolver';
import type { PageContext } from './page-context.types';

export type { PageContext };

export function pageContext(
  engine: { config: EngineConfig; datasources: DatasourceRegistry },
  req: Request,
): PageContext {
  const api = engine.config.api;
  const admins = [...engine.config.policies.admin_roles];
  const caller = resolveRoles(api, req);
  const configured = roleSourceConfigured(api);
  const mayAdmin = callerMayAdmin(api, admins, req);
  return {
    role_source: {
      header: api.role_header ?? null,
      static_role: api.role ?? null,
      trust_body_role: api.trust_body_role,
      configured,
    },
    caller: {
      roles: caller.roles ? [...caller.roles] : null,
      may_query: caller.roles !== null,
      may_admin: mayAdmin,
    },
    admin_roles: admins,
    sample_questions: Object.fromEntries(
      engine.datasources.all().map((e) => [e.config.id, [...(e.config.sample_questions ?? [])]]),
    ),
  };
}
