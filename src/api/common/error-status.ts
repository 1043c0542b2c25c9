/**
 * The one place where an engine error becomes an HTTP answer: one case per code of the closed
 * ErrorCode list, so a new code does not compile until it has a status here. Controllers and
 * guards throw engine errors and never choose a status themselves. Pipeline failures normally
 * never come here (they are data in `errors[]` of a 200 response); their codes still have the
 * status a route would answer if one threw them.
 */
import { HttpStatus } from '@nestjs/common';
import { redact } from '../../config/redact';
import { IndexBuildError, INTERNAL_DETAIL, PublicServerError, type ErrorCode } from '../../engine/errors';

/** The JSON body of every HTTP failure: a detail for people, a code for programs. */
export interface ErrorBodyJson {
  readonly detail: string;
  readonly error_code: ErrorCode;
}

/** An error that carries a code of the closed list (an EngineError, or a ConfigError). */
export type CodedError = Error & { readonly code: ErrorCode };

/**
 * The status and body of a coded error. A client error's message says what to fix; a server
 * error's may hold internals, so callers read the generic detail (and `logged` tells the filter to
 * log the message) unless the engine wrote the message for them.
 */
export function httpErrorOf(err: CodedError): { status: HttpStatus; body: ErrorBodyJson; logged: boolean } {
  // Spec 4.12: a datasource that fails to index is a 500 naming the reason, whatever the cause's code.
  const status = err instanceof IndexBuildError ? HttpStatus.INTERNAL_SERVER_ERROR : statusForCode(err.code);
  const shown = status < HttpStatus.INTERNAL_SERVER_ERROR || err instanceof PublicServerError;
  return {
    status,
    body: { detail: shown ? redact(err.message) : INTERNAL_DETAIL, error_code: err.code },
    logged: !shown,
  };
}

export function statusForCode(code: ErrorCode): HttpStatus {
  switch (code) {
    case 'NOT_FOUND':
    case 'DATASOURCE_NOT_FOUND':
    case 'LLM_AGENT_UNKNOWN':
      return HttpStatus.NOT_FOUND;
    case 'ROLE_REQUIRED':
      return HttpStatus.UNAUTHORIZED;
    case 'METHOD_NOT_ALLOWED':
      return HttpStatus.METHOD_NOT_ALLOWED;
    case 'ROLE_FORBIDDEN':
    case 'DATASOURCE_DENIED':
    case 'TABLE_DENIED':
    case 'COLUMN_DENIED':
    case 'HOOK_DENIED':
      return HttpStatus.FORBIDDEN;
    case 'CONFIG_INVALID':
    case 'REQUEST_INVALID':
    case 'INVALID_PAGE_REQUEST':
    case 'SECRET_UNRESOLVED':
    case 'LLM_KEY_MISSING':
    case 'LLM_PROVIDER_UNSUPPORTED':
    case 'LLM_PROVIDER_NOT_INSTALLED':
    case 'LLM_BASE_URL_REQUIRED':
    case 'LLM_PLUGIN_INVALID':
    case 'DATASOURCE_CONFIG_INVALID':
    case 'QUESTION_UNANSWERABLE':
    case 'NO_DATASOURCE_AVAILABLE':
    case 'UNKNOWN_TABLE':
    case 'UNKNOWN_COLUMN':
    case 'UNKNOWN_TABLE_ALIAS':
    case 'AMBIGUOUS_COLUMN':
    case 'DUPLICATE_ALIAS':
    case 'UNGROUPED_COLUMN':
    case 'MISPLACED_AGGREGATE':
    case 'NESTED_AGGREGATE':
    case 'MISPLACED_WINDOW':
    case 'MISPLACED_STAR':
    case 'BAD_ARGUMENTS':
    case 'BAD_FRAME':
    case 'BAD_LIMIT':
    case 'LIMIT_TOO_LARGE':
    case 'SET_OP_COLUMN_COUNT':
    case 'SUBQUERY_COLUMN_COUNT':
    case 'JOIN_MISSING_CONDITION':
    case 'JOIN_TYPE_MISMATCH':
    case 'PLAN_SCHEMA_VIOLATION':
    case 'PLAN_TOO_COMPLEX':
    case 'PLAN_MISSING':
    case 'PLAN_UNSUPPORTED':
    case 'PLAN_MALFORMED':
    case 'PLAN_PARAM_MISSING':
    case 'PLAN_INVALID':
    case 'SQL_PARSE_ERROR':
    case 'SQL_IMPORT_UNSUPPORTED':
    case 'MODEL_OUTPUT_INVALID':
    case 'VERIFIED_QUERY_INVALID':
    case 'CORRECTED_SQL_INVALID':
      return HttpStatus.UNPROCESSABLE_ENTITY;
    case 'VERIFIED_QUERY_EXISTS':
    case 'VERIFIED_QUERY_READ_ONLY':
      return HttpStatus.CONFLICT;
    case 'RUN_COST_LIMIT':
    case 'RUN_CALL_LIMIT':
    case 'PROVIDER_RATE_LIMITED':
    case 'PROVIDER_QUOTA_EXCEEDED':
      return HttpStatus.TOO_MANY_REQUESTS;
    case 'PROVIDER_AUTH_FAILED':
    case 'PROVIDER_PERMISSION_DENIED':
    case 'PROVIDER_MODEL_NOT_FOUND':
    case 'PROVIDER_UNAVAILABLE':
    case 'PROVIDER_BAD_REQUEST':
    case 'PROVIDER_BAD_RESPONSE':
    case 'PROVIDER_CONTEXT_TOO_LONG':
    case 'PROVIDER_CONTENT_REFUSED':
    case 'PROVIDER_TEMPERATURE_REJECTED':
    case 'PROVIDER_ERROR':
    case 'LLM_CLIENT_CLOSED':
      return HttpStatus.BAD_GATEWAY;
    case 'PROVIDER_TIMEOUT':
    case 'DATASOURCE_TIMEOUT':
      return HttpStatus.GATEWAY_TIMEOUT;
    case 'RUN_CANCELLED':
    case 'ENGINE_NOT_READY':
    case 'ENGINE_CLOSED':
    case 'DATASOURCE_UNAVAILABLE':
      return HttpStatus.SERVICE_UNAVAILABLE;
    case 'DATASOURCE_READ_ONLY':
    case 'DATASOURCE_QUERY_FAILED':
    case 'DATASOURCE_ABORTED':
    case 'DATASOURCE_ADD_FAILED':
    case 'INDEX_BUILD_FAILED':
    case 'INDEX_UNAVAILABLE':
    case 'EMBEDDINGS_KEY_MISSING':
    case 'INDEX_STORE_UNAVAILABLE':
    case 'INDEX_STORE_CLOSED':
    case 'INDEX_BUILD_UNKNOWN':
    case 'INDEX_SNAPSHOT_MISMATCH':
    case 'DEMO_PATH_OCCUPIED':
    case 'DEMO_DATABASE_LOCKED':
    case 'DEMO_DATABASE_UNREADABLE':
    case 'DEMO_BUILD_FAILED':
    case 'DEMO_BUILD_ABORTED':
    case 'STORAGE_WRITE_FAILED':
    case 'INTERNAL_ERROR':
      return HttpStatus.INTERNAL_SERVER_ERROR;
    default:
      return assertUnreachable(code);
  }
}

function assertUnreachable(code: never): never {
  throw new Error(`no HTTP status for error code ${String(code)}`);
}
