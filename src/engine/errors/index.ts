export { ERROR_CODES, isErrorCode, type ErrorCode } from './error-code';
export { EngineError, NotFoundError, RunCancelledError } from './engine-error';
