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

/**
 * The one cancellation error: the caller went away (or aborted its signal). Raised before the next
 * step or model call, and by a model call cut short by the run's signal.
 */
export class RunCancelledError extends EngineError {
  constructor(message = 'the run was cancelled (the client went away)') {
    super('RUN_CANCELLED', message);
    this.name = 'RunCancelledError';
  }
}
