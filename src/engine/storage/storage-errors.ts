import { EngineError, NotFoundError } from '../errors';

/**
 * One message for every way a result can be missing (unknown run, another tenant's run, a result
 * the manifest does not list, an id that is not a plain token): the caller must not be able to
 * tell them apart, so nothing about the request is echoed back.
 */
export const RESULT_NOT_FOUND_MESSAGE = 'Result not found';

export function resultNotFound(): NotFoundError {
  return new NotFoundError(RESULT_NOT_FOUND_MESSAGE);
}

/** A page request outside the spec's limits (offset < 0, limit < 1, not an integer). HTTP 422. */
export class InvalidPageRequestError extends EngineError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('INVALID_PAGE_REQUEST', message, details);
    this.name = 'InvalidPageRequestError';
  }
}

/** Writing an artifact or a trace failed (bad id, cells that do not fit their column, disk). */
export class StorageWriteError extends EngineError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('STORAGE_WRITE_FAILED', message, details);
    this.name = 'StorageWriteError';
  }
}
