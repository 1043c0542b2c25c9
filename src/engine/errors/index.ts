export { ERROR_CODES, isErrorCode, type ErrorCode } from './error-code';
export { EngineError, INTERNAL_DETAIL, NotFoundError, PublicServerError } from './engine-error';
export { RefusalError, RunCancelledError, RunLimitError } from './run-errors';
export { PlanRejectedError } from './plan-rejected-error';
export { EngineNotReadyError, type DatasourceCheck } from './engine-not-ready-error';
export { IndexBuildError } from './index-build-error';
