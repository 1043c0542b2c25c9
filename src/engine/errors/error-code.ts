/**
 * Every `error_code` the service can put on the wire, in one closed list. A code added here without
 * an HTTP status does not compile (the exhaustive mapping in api/common/error-status.ts), and a test
 * keeps the README's error table equal to the list.
 */
/** What the plan validator finds wrong with a plan (its problems, besides the policy refusals). */
export const PLAN_PROBLEM_CODES = [
  'UNKNOWN_TABLE',
  'UNKNOWN_COLUMN',
  'UNKNOWN_TABLE_ALIAS',
  'AMBIGUOUS_COLUMN',
  'DUPLICATE_ALIAS',
  'UNGROUPED_COLUMN',
  'MISPLACED_AGGREGATE',
  'NESTED_AGGREGATE',
  'MISPLACED_WINDOW',
  'MISPLACED_STAR',
  'BAD_ARGUMENTS',
  'BAD_FRAME',
  'BAD_LIMIT',
  'LIMIT_TOO_LARGE',
  'SET_OP_COLUMN_COUNT',
  'SUBQUERY_COLUMN_COUNT',
  'JOIN_MISSING_CONDITION',
  'JOIN_TYPE_MISMATCH',
  'PLAN_SCHEMA_VIOLATION',
  'PLAN_TOO_COMPLEX',
] as const;

/** Every error code, in the order of the README's table. */
export const ERROR_CODES = [
  // model providers (run)
  'PROVIDER_AUTH_FAILED',
  'PROVIDER_PERMISSION_DENIED',
  'PROVIDER_MODEL_NOT_FOUND',
  'PROVIDER_RATE_LIMITED',
  'PROVIDER_QUOTA_EXCEEDED',
  'PROVIDER_TIMEOUT',
  'PROVIDER_UNAVAILABLE',
  'PROVIDER_BAD_REQUEST',
  'PROVIDER_CONTEXT_TOO_LONG',
  'PROVIDER_CONTENT_REFUSED',
  'PROVIDER_TEMPERATURE_REJECTED',
  'PROVIDER_BAD_RESPONSE',
  'PROVIDER_ERROR',
  'MODEL_OUTPUT_INVALID',
  // model set-up
  'LLM_KEY_MISSING',
  'LLM_PROVIDER_NOT_INSTALLED',
  'LLM_PROVIDER_UNSUPPORTED',
  'LLM_BASE_URL_REQUIRED',
  'LLM_PLUGIN_INVALID',
  'LLM_CLIENT_CLOSED',
  'LLM_AGENT_UNKNOWN',
  // routing, roles, hooks, limits
  'DATASOURCE_NOT_FOUND',
  'DATASOURCE_DENIED',
  'TABLE_DENIED',
  'COLUMN_DENIED',
  'NO_DATASOURCE_AVAILABLE',
  'QUESTION_UNANSWERABLE',
  'HOOK_DENIED',
  'RUN_COST_LIMIT',
  'RUN_CALL_LIMIT',
  'RUN_CANCELLED',
  // plan problems (sent back to the planner; reported when retries run out)
  ...PLAN_PROBLEM_CODES,
  'PLAN_MISSING',
  'PLAN_UNSUPPORTED',
  'PLAN_MALFORMED',
  'PLAN_PARAM_MISSING',
  'PLAN_INVALID',
  'SQL_PARSE_ERROR',
  'SQL_IMPORT_UNSUPPORTED',
  // datasources
  'DATASOURCE_UNAVAILABLE',
  'DATASOURCE_TIMEOUT',
  'DATASOURCE_READ_ONLY',
  'DATASOURCE_QUERY_FAILED',
  'DATASOURCE_ABORTED',
  'DATASOURCE_CONFIG_INVALID',
  'DATASOURCE_ADD_FAILED',
  // configuration and start-up
  'CONFIG_INVALID',
  'SECRET_UNRESOLVED',
  'ENGINE_NOT_READY',
  'ENGINE_CLOSED',
  // HTTP callers
  'ROLE_REQUIRED',
  'ROLE_FORBIDDEN',
  'NOT_FOUND',
  'REQUEST_INVALID',
  'INVALID_PAGE_REQUEST',
  'METHOD_NOT_ALLOWED',
  // verified queries and feedback
  'VERIFIED_QUERY_INVALID',
  'VERIFIED_QUERY_EXISTS',
  'VERIFIED_QUERY_READ_ONLY',
  'CORRECTED_SQL_INVALID',
  // index
  'INDEX_BUILD_FAILED',
  'INDEX_UNAVAILABLE',
  'EMBEDDINGS_KEY_MISSING',
  'INDEX_STORE_UNAVAILABLE',
  'INDEX_STORE_CLOSED',
  'INDEX_BUILD_UNKNOWN',
  'INDEX_SNAPSHOT_MISMATCH',
  // demo database
  'DEMO_PATH_OCCUPIED',
  'DEMO_DATABASE_LOCKED',
  'DEMO_DATABASE_UNREADABLE',
  'DEMO_BUILD_FAILED',
  'DEMO_BUILD_ABORTED',
  // storage and the rest
  'STORAGE_WRITE_FAILED',
  'INTERNAL_ERROR',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const KNOWN: ReadonlySet<string> = new Set(ERROR_CODES);

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && KNOWN.has(code);
}
