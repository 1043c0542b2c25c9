/**
 * The schema index: routing and schema linking without a model (spec 2, 3 rules 3/5/6, 4.12-4.15).
 *
 * API (plain TypeScript, no Nest, no HTTP):
 *
 *   const index = createIndexService({ embeddings, storage }, { secrets, logger });
 *   await index.open();                                   // opens <storage.index.path>/index.duckdb, loads live entries
 *
 *   index.indexDatasource(id, snapshot, meta?, values?)  -> Promise<IndexingStats>
 *       Builds one datasource from its SchemaSnapshot and DatasourceMeta ({description,
 *       sampleQuestions, verifiedQueries}), and its value index from a ValueSource (a datasource
 *       adapter: distinct text values per column, values/collect.ts); no model call except the embedder. Entries are written
 *       beside the live ones and switched in when complete; on failure it throws an EngineError
 *       (code kept from the cause, e.g. PROVIDER_AUTH_FAILED, else INDEX_BUILD_FAILED) and the
 *       previous entries keep answering. -> POST /api/v1/index/{id} (`indexing_stats`).
 *   index.indexAll(targets: IndexTarget[])      -> Promise<IndexAllResult {stats, empty, errors, removed}>
 *       Each target is {datasourceId, snapshot | () => Promise<snapshot>, meta?}; a failing one is an
 *       `errors` entry {datasource_id, error, error_code}. Drops entries of datasources not listed.
 *       -> POST /api/v1/index-all (`indexing_results`).
 *   index.clear()                               -> Promise<ClearIndexResult {namespace, removed_entries, removed_builds, datasources}>
 *       -> DELETE /api/v1/index.
 *   index.status(configured: (id | {datasourceId, schemaVersion?})[]) -> Promise<IndexStatus>
 *       The spec's index status shape, snake_case, ready for the wire. -> GET /api/v1/index/status.
 *   index.lookupValues(question, {datasourceIds?, limit?, perColumn?}) -> ValueMatch[]  best first
 *       Stored values the question's words and phrases name (exact, corrected, partial).
 *   index.rankDatasources(question)             -> Promise<{datasourceId, score}[]>  best first
 *   index.linkSchema(question, datasourceId | POOLED, {tables?: 5, columns?: 10})
 *                                               -> Promise<SchemaLink {tables, columns, relationships}>
 *       Top-k tables and columns, plus every table on a foreign-key join path between the chosen
 *       tables (`joinPath: true`) and the foreign keys among them.
 *   index.retriever()                           -> the current Retriever (immutable snapshot of the live entries)
 *   await index.close();
 *
 * Embedders: `createEmbedder(config.embeddings, secrets)`: `local` (bundled, deterministic, no key)
 * or `openai`/`alpha` (the SDK; key from embeddings.api_key or OPENAI_API_KEY).
 * The store is behind `IndexStore`; `DuckDbIndexStore` is the embedded implementation.
 */
export { createIndexService, DEFAULT_INDEX_PATH, INDEX_FILE } from './create-index-service';

export { IndexService } from './index-service';
export type {
  IndexingStats,
  IndexAllResult,
  IndexTarget,
  ClearIndexResult,
  IndexLogger,
  IndexServiceOptions,
} from './index-service';
export type { IndexStatus, IndexProblem, IndexState, ConfiguredDatasource } from './status';
export { Retriever, POOLED } from './retriever';
export type {
  RankedDatasource,
  SchemaLink,
  LinkedTable,
  LinkedColumn,
  LinkedRelationship,
  LinkOptions,
} from './retriever';
export { createEmbedder } from './embedders/create-embedder';
export type { Embedder, EmbeddingUsage } from './embedders/embedder';
export { LocalEmbedder } from './embedders/local-embedder';
export { OpenAiEmbedder } from './embedders/openai-embedder';
export { DuckDbIndexStore } from './store/duckdb-index-store';
export type { IndexStore, IndexScope, BuildRecord, StoredEntry } from './store/index-store';
export { ENTRY_KINDS, buildEntries, type EntryKind, type DatasourceMeta } from './entries';
export { tableKey } from './entries';
export type { EvidenceOptions } from './retriever';
export { SchemaIndex } from './schema-index';
export { stem, terms } from './text/tokens';
export { isValueColumn } from './values/collect';
export { words } from './values/normalise';
export { textShape } from './values/text-shape';
export type { MatchKind, ValueIndex, ValueMatch } from './values/value-index';
