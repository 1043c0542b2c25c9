/** Result artifacts, traces and retention. Stores are used through their interfaces. */
export type {
  ArtifactRef,
  ManifestColumn,
  ManifestEntry,
  PageRequest,
  ResultPage,
  StoredResult,
  WriteResultOptions,
} from './result-store';
export { ResultStore } from './result-store';
export { LocalResultStore } from './local-result-store';
export { ARROW_STREAM_MEDIA_TYPE } from './arrow-export-stream';
export { LocalTraceStore, TraceStore } from './trace-store';
export {
  DEFAULT_MAX_AGE_DAYS,
  purge,
  type PurgeOptions,
  type PurgeReport,
  type PurgeStoreOptions,
} from './purge';
export { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, validatePageRequest } from './page-request';
export {
  InvalidPageRequestError,
  RESULT_NOT_FOUND_MESSAGE,
  StorageWriteError,
  resultNotFound,
} from './storage-errors';
export { isPlainToken } from './ids';
