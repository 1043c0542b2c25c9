/**
 * One shared in-memory DuckDB instance for staging small results (a single batch of at most one
 * data chunk) on their way to parquet. Creating and closing a DuckDB instance per result cost
 * about 40 ms a run (e2e bench profile); a connection on a shared instance costs well under 1 ms.
 * Each write stages into a TEMP table, private to its connection and dropped when it closes.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/** Small results only: one data chunk per write, so a few MB even with many writes at once. */
const MEMORY_LIMIT = '256MB';
/** Each connection runs its statements on its caller's thread; a small COPY needs no more. */
const THREADS = '1';

export class SmallResultStaging {
  private instance: Promise<DuckDBInstance> | undefined;

  async connect(): Promise<DuckDBConnection> {
    this.instance ??= DuckDBInstance.create(':memory:', {
      memory_limit: MEMORY_LIMIT,
      threads: THREADS,
    }).catch((err: unknown) => {
      this.instance = undefined; // the next write tries again
      throw err;
    });
    return (await this.instance).connect();
  }

  async close(): Promise<void> {
    const instance = this.instance;
    this.instance = undefined;
    if (instance) (await instance).closeSync();
  }
}
