/**
 * Decides which roles a request carries (spec 5). The service does not authenticate: a trusted
 * proxy sets `api.role_header`, or `api.role` gives every request one static role, or (local
 * testing only) `api.trust_body_role` reads `user_context.roles` from the body. First match wins.
 */
import type { Request } from 'express';
import type { AppConfig } from '../../config/defaults';

export type RoleSource = 'header' | 'static' | 'body';

export interface CallerRoles {
  /** Roles found, or null when no source gave any. */
  readonly roles: readonly string[] | null;
  readonly source: RoleSource | null;
  readonly userId: string | null;
}

export const ROLE_KEYS_HINT = 'api.role_header, api.role or api.trust_body_role';

/** The body field `api.trust_body_role` reads roles from, on any route that takes a body. */
export const BODY_ROLE_FIELD = 'user_context';

export function roleSourceConfigured(api: AppConfig['api']): boolean {
  return Boolean(api.role_header || api.role || api.trust_body_role);
}

export function resolveRoles(api: AppConfig['api'], req: Request): CallerRoles {
  if (api.role_header) {
    const raw = req.headers[api.role_header.toLowerCase()];
    const roles = splitRoles(Array.isArray(raw) ? raw.join(',') : raw);
    if (roles.length) return { roles, source: 'header', userId: headerUser(req) };
  }
  if (api.role) return { roles: [api.role], source: 'static', userId: null };
  if (api.trust_body_role) {
    const ctx = (req.body as Record<string, unknown> | undefined)?.[BODY_ROLE_FIELD];
    if (ctx && typeof ctx === 'object') {
      const list = (ctx as { roles?: unknown }).roles;
      const roles = Array.isArray(list)
        ? list.filter((r): r is string => typeof r === 'string' && r.trim() !== '')
        : [];
      const userId = (ctx as { user_id?: unknown }).user_id;
      if (roles.length)
        return {
          roles: roles.map((r) => r.trim()),
          source: 'body',
          userId: typeof userId === 'string' ? userId : null,
        };
    }
  }
  return { roles: null, source: null, userId: null };
}

function splitRoles(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
}

function headerUser(req: Request): string | null {
  const v = req.headers['x-user-id'];
  return typeof v === 'string' && v ? v : null;
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/**
 * Whether this request passes the admin routes' check (RolesGuard): an admin role from the
 * configured source, or, with no role source configured, a loopback client.
 */
export function callerMayAdmin(api: AppConfig['api'], adminRoles: readonly string[], req: Request): boolean {
  if (!roleSourceConfigured(api)) return isLoopback(req.socket.remoteAddress);
  return Boolean(resolveRoles(api, req).roles?.some((r) => adminRoles.includes(r)));
}
