/**
 * Errors that cross a boundary carry a stable code from the closed ErrorCode list: an `instanceof`
 * check does not survive a process or a wire, a code does. The HTTP filter maps codes to statuses
 * in one exhaustive table.
 */
import type { ErrorCode } from './error-code';

export class EngineError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

/** An id that names nothing the engine knows (datasource, agent, result). HTTP 404. */
export class NotFoundError extends EngineError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('NOT_FOUND', message, details);
    this.name = 'NotFoundError';
  }
}

/** What a caller reads of a failure whose details may hold internals; the details go to the server log. */
export const INTERNAL_DETAIL = 'internal error; the server log has the details';

/**
 * A server-side failure whose message was written for the caller (any reason in it redacted), so
 * the HTTP layer shows it instead of the generic detail it gives other server errors.
 */
export class PublicServerError extends EngineError {
  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(code, message, details);
    this.name = 'PublicServerError';
  }
}
