import type { Dialect, SchemaSnapshot, TableInfo, TypeKind } from './schema';

export type DatasourceType = 'duckdb' | 'sqlite' | 'postgres' | 'mysql';
export const DATASOURCE_TYPES: readonly DatasourceType[] = ['duckdb', 'sqlite', 'postgres', 'mysql'];

/**
 * A JSON-safe cell: BIGINT beyond 2^53 and exact decimals that do not fit a double become strings;
 * timestamps ISO 8601 strings (`Z` only for instants), dates `YYYY-MM-DD`, binary values base64.
 * SQLite has no date type: its TEXT dates come back as stored. Rules in `cells.ts`.
 */
export type Cell = string | number | boolean | null;

export interface ResultColumn {
  readonly name: string;
  readonly kind: TypeKind;
}

export interface ResultBatch {
  readonly columns: readonly ResultColumn[];
  readonly rows: Cell[][];
  /** True on the batch where `maxRows` cut the result (more rows existed). */
  readonly truncated?: boolean;
}

export interface ExecuteOptions {
  /**
   * Statement timeout; the datasource's `limits.timeout_s` (default 30 s) when not given. It is a
   * budget of time spent waiting on the database (a slow consumer between batches is not counted),
   * also set server-side where the database has one (postgres, mysql). Past it: DATASOURCE_TIMEOUT.
   */
  readonly timeoutMs?: number;
  /** Rows per streamed batch. */
  readonly batchSize?: number;
  /** Stops reading after this many rows (the adapter still closes the cursor cleanly). */
  readonly maxRows?: number;
  /**
   * Aborting stops the running statement; the call fails with DATASOURCE_ABORTED. A statement still
   * waiting for a connection (or a slot of the datasource) leaves the queue and is never sent.
   */
  readonly signal?: AbortSignal;
}

export interface IntrospectOptions {
  /** Distinct sample values per column (default 5). */
  readonly sampleValues?: number;
}

/**
 * One datasource. Built (validated, nothing opened) by the factory; `connect` opens the pool.
 * Every statement runs read-only: a write fails even when it reaches the database.
 * `sql` is in the adapter's own dialect with its own placeholders ($1 for postgres and duckdb, ? otherwise).
 * Failures are `DatasourceError`s (errors.ts) with a DATASOURCE_* code and a redacted message.
 * Build one with `createAdapter` (factory.ts); a call before `connect` connects first.
 */
export interface DistinctValuesOptions {
  readonly limit: number;
  /** Sample about this many rows instead of reading the whole table. */
  readonly sampleRows: number | null;
  /** The table's row estimate (a sampling clause may need it as a share). */
  readonly tableRows?: number | null;
}

export interface DatasourceAdapter {
  readonly id: string;
  readonly type: DatasourceType;
  readonly dialect: Dialect;
  connect(): Promise<void>;
  /** Cheap round trip (`SELECT 1`); throws with the reason when unhealthy. */
  healthCheck(): Promise<void>;
  introspect(options?: IntrospectOptions): Promise<SchemaSnapshot>;
  /**
   * The `limit` most frequent non-null values of one column with their counts (the value index's
   * source); over a sample of about `sampleRows` rows of a large table when given.
   */
  distinctValues(
    table: Pick<TableInfo, 'name' | 'schema'>,
    column: string,
    options: DistinctValuesOptions,
  ): Promise<{ value: string; count: number }[]>;
  /** Whole result in memory: only for small, capped results. */
  execute(sql: string, params?: readonly unknown[], options?: ExecuteOptions): Promise<ResultBatch>;
  /** The result in batches, never whole in memory. */
  stream(sql: string, params?: readonly unknown[], options?: ExecuteOptions): AsyncIterable<ResultBatch>;
  close(): Promise<void>;
  /** Statements open now (each holds a connection or a pool slot while it streams). */
  readonly activeStatements: number;
  /**
   * Statements handed to the database so far. One stopped before it was sent (its caller aborted
   * or its time ran out while it waited for a connection) is never sent and not counted.
   */
  readonly statementsSent: number;
}
