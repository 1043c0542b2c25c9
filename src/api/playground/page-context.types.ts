/**
 * The body of `GET /playground/context`, the page's own route (not part of the API contract, so
 * not in the OpenAPI document). No imports: the browser page (src/web/page/wire.ts) reads the
 * same type.
 */
export interface PageContext {
  role_source: {
    /** Header a trusted proxy sets; the page sends the roles typed into its role field in it. */
    header: string | null;
    static_role: string | null;
    trust_body_role: boolean;
    configured: boolean;
  };
  caller: {
    roles: string[] | null;
    /** The query and result routes answer this caller (they need some role). */
    may_query: boolean;
    /** PUT /api/v1/settings/llm and the other admin routes answer this caller. */
    may_admin: boolean;
  };
  admin_roles: string[];
  sample_questions: Record<string, string[]>;
}
