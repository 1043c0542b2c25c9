/**
 * Where index entries live. Behind this small interface so a shared backend (PostgreSQL with
 * pgvector) can sit beside the embedded DuckDB store (DESIGN "Scale beyond one machine").
 *
 * A build is staged: entries (and the datasource's column values) are appended under a pending build id and become live only when
 * `commitBuild` swaps them in, in one transaction, for the previous build of that datasource. Until
 * then (and for ever if the build is aborted or the process dies) readers see the previous build.
 */
import type { EntryDraft, EntryKind } from '../entries';
import type { StoredValue } from '../values/value-index';

/** Entries are read and written within one namespace and one embedding model. */
export interface IndexScope {
  readonly namespace: string;
  readonly embeddingModel: string;
}

export interface StoredEntry extends EntryDraft {
  readonly datasourceId: string;
  readonly vector: Float32Array;
}

export interface BuildRecord {
  readonly datasourceId: string;
  readonly indexVersion: number;
  readonly schemaVersion: string;
  readonly builtAt: string;
  readonly entries: number;
}

export interface SearchHit {
  readonly entry: StoredEntry;
  readonly score: number;
}

export interface ClearResult {
  /** Entries removed per datasource (every model of the namespace). */
  readonly datasources: Record<string, number>;
  readonly entries: number;
  readonly builds: number;
}

export interface IndexStore {
  open(): Promise<void>;
  beginBuild(scope: IndexScope, datasourceId: string, schemaVersion: string): Promise<string>;
  appendEntries(
    buildId: string,
    scope: IndexScope,
    datasourceId: string,
    entries: readonly StoredEntry[],
  ): Promise<void>;
  /** Distinct column values of a pending build (the value index); live with the build's entries. */
  appendValues(buildId: string, values: readonly StoredValue[]): Promise<void>;
  /** Every live value of the scope (what the value index keeps in memory). */
  loadValues(scope: IndexScope): Promise<StoredValue[]>;
  /** Makes the pending build live and drops the datasource's previous build, atomically. */
  commitBuild(buildId: string): Promise<BuildRecord>;
  /** Drops a pending build's rows; the live build is untouched. */
  abortBuild(buildId: string): Promise<void>;
  liveBuilds(scope: IndexScope): Promise<BuildRecord[]>;
  /** Embedding models that have live builds in the namespace. */
  models(namespace: string): Promise<string[]>;
  /** Every live entry of the scope (what the retriever keeps in memory). */
  loadEntries(scope: IndexScope): Promise<StoredEntry[]>;
  /** Nearest live entries by cosine similarity, computed by the store. */
  search(
    scope: IndexScope,
    vector: Float32Array,
    options: {
      readonly k: number;
      readonly kinds?: readonly EntryKind[];
      readonly datasourceIds?: readonly string[];
    },
  ): Promise<SearchHit[]>;
  /** Live entries per kind. */
  countByKind(scope: IndexScope): Promise<Record<string, number>>;
  /** Drops a datasource's live build (a datasource no longer configured); returns entries removed. */
  dropDatasource(scope: IndexScope, datasourceId: string): Promise<number>;
  clear(namespace: string): Promise<ClearResult>;
  close(): Promise<void>;
}
