/**
 * Calls to the service's own routes. The caller's roles travel the way the service is configured
 * to read them: in the role header when `api.role_header` is set, or (local testing only) in the
 * body's `user_context` when `api.trust_body_role` is on.
 */
import type { PageContext } from './wire';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
  ) {
    super(message);
  }

  /** The service's error body is `{detail, error_code}`; anything else is named by its status. */
  static async from(res: Response): Promise<ApiError> {
    let detail = `${res.status} ${res.statusText}`;
    let code: string | null = null;
    try {
      const body = (await res.json()) as { detail?: unknown; error_code?: unknown };
      if (typeof body.detail === 'string') detail = body.detail;
      else if (body.detail !== undefined) detail = JSON.stringify(body.detail);
      if (typeof body.error_code === 'string') code = body.error_code;
    } catch {
      // Not JSON: keep the status line.
    }
    return new ApiError(res.status, code, detail);
  }
}

export class Api {
  /** Set from the page context: the header to carry the typed roles in, or null. */
  roleHeader: string | null = null;
  bodyRoles = false;
  roles = '';

  headers(extra: Record<string, string> = {}): Record<string, string> {
    const out: Record<string, string> = { Accept: 'application/json', ...extra };
    if (this.roleHeader && this.roles.trim()) out[this.roleHeader] = this.roles.trim();
    return out;
  }

  /** The `user_context` a query body carries when roles come from the body. */
  userContext(): { roles: string[] } | undefined {
    if (!this.bodyRoles || !this.roles.trim()) return undefined;
    return {
      roles: this.roles
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean),
    };
  }

  get<T>(path: string): Promise<T> {
    return this.send<T>('GET', path);
  }

  async send<T>(
    method: string,
    path: string,
    body?: unknown,
    extra: Record<string, string> = {},
  ): Promise<T> {
    const res = await fetch(path, {
      method,
      headers: this.headers(body === undefined ? extra : { 'Content-Type': 'application/json', ...extra }),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw await ApiError.from(res);
    return (await res.json()) as T;
  }

  context(): Promise<PageContext> {
    return this.get<PageContext>('/playground/context');
  }
}
