/**
 * Errors that cross a boundary carry a stable UPPER_SNAKE code: an `instanceof` check does not
 * survive a process or a wire, a code does. The HTTP filter maps codes to statuses in one place.
 */
export class EngineError extends Error {
  constructor(
    readonly code: string,
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
