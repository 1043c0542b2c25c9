/**
 * Streams result batches into one parquet file without holding the result in memory: rows go
 * through DuckDB's appender into a staging database on disk (DuckDB spills beyond its memory
 * limit), and `COPY ... (FORMAT parquet)` writes the file under a temporary name that is renamed
 * into place only when complete. A failing batch iterator leaves no file under the final name.
 * A result of at most one data chunk of rows (in any number of batches) is read into memory and
 * encoded in this process instead (small-parquet.ts).
 */
import {
  DuckDBDataChunk,
  DuckDBInstance,
  type DuckDBAppender,
  type DuckDBConnection,
  type DuckDBValue,
} from '@duckdb/node-api';
import { rename, rm } from 'node:fs/promises';
import type { ResultBatch, ResultColumn } from '../datasources/adapter';
import { tempPathBeside } from './atomic-file';
import {
  duckdbTypeOf,
  encodeCell,
  manifestColumns,
  physicalTypeOf,
  quoteIdent,
  quoteLiteral,
} from './parquet-columns';
import { RESULT_METADATA_KEY } from './result-metadata';
import type { MetadataFor, ParquetWriteOutcome } from './parquet-outcome';
import type { ManifestColumn } from './result-store';
import { writeSmallParquet } from './small-parquet';
import { StorageWriteError } from './storage-errors';

export type { MetadataFor, ParquetWriteOutcome } from './parquet-outcome';

/** DuckDB's vector size: a data chunk holds at most this many rows. */
const CHUNK_ROWS = 2048;
/** Bounds the staging database's buffer pool; past it DuckDB writes pages to the staging file. */
const STAGING_MEMORY_LIMIT = '64MB';

export async function writeParquetAtomic(
  finalPath: string,
  batches: AsyncIterable<ResultBatch> | Iterable<ResultBatch>,
  fallbackColumns: readonly ResultColumn[] = [],
  metadataFor?: MetadataFor,
): Promise<ParquetWriteOutcome> {
  // Reads ahead while the result still fits one data chunk: if it ends by then, it is small.
  const source = asyncIteratorOf(batches);
  const head: ResultBatch[] = [];
  let rows = 0;
  let read = await source.next();
  while (!read.done) {
    head.push(read.value);
    rows += read.value.rows.length;
    if (rows > CHUNK_ROWS) break;
    read = await source.next();
  }
  if (read.done) return writeSmallParquet(finalPath, head, fallbackColumns, metadataFor);
  try {
    return await writeStaged(finalPath, replay(head, source), fallbackColumns, metadataFor);
  } catch (err) {
    // The source was started by the look-ahead: close it even when staging never read it.
    await source.return?.();
    throw err;
  }
}

/** Stages into a DuckDB database of its own, on disk beside the file. */
async function writeStaged(
  finalPath: string,
  batches: AsyncIterable<ResultBatch> | Iterable<ResultBatch>,
  fallbackColumns: readonly ResultColumn[],
  metadataFor: MetadataFor | undefined,
): Promise<ParquetWriteOutcome> {
  const stagingPath = tempPathBeside(finalPath, '.staging.duckdb');
  const tempParquet = tempPathBeside(finalPath, '.parquet.tmp');
  const instance = await DuckDBInstance.create(stagingPath, { memory_limit: STAGING_MEMORY_LIMIT });
  let connection: DuckDBConnection | undefined;
  try {
    connection = await instance.connect();
    const outcome = await stageAndCopy(
      new StagingTable(connection),
      batches,
      fallbackColumns,
      tempParquet,
      metadataFor,
    );
    await rename(tempParquet, finalPath);
    // Dropped first, the table is not checkpointed into a file about to be deleted when the
    // instance closes (a close that runs on the event loop).
    await connection.run('DROP TABLE staging');
    return outcome;
  } finally {
    closeQuietly(() => connection?.closeSync());
    closeQuietly(() => instance.closeSync());
    await Promise.all([stagingPath, `${stagingPath}.wal`, tempParquet].map((p) => rm(p, { force: true })));
  }
}

async function stageAndCopy(
  staging: StagingTable,
  batches: AsyncIterable<ResultBatch> | Iterable<ResultBatch>,
  fallbackColumns: readonly ResultColumn[],
  tempParquet: string,
  metadataFor: MetadataFor | undefined,
): Promise<ParquetWriteOutcome> {
  let appender: DuckDBAppender | undefined;
  try {
    let truncated = false;
    for await (const batch of batches) {
      // Read loosely: the flag is optional in the adapter contract.
      if ((batch as { truncated?: boolean }).truncated === true) truncated = true;
      appender ??= await staging.create(batch.columns);
      staging.append(appender, batch);
    }
    appender ??= await staging.create(fallbackColumns);
    appender.closeSync();
    appender = undefined;
    const outcome = { columns: staging.columns, rowCount: staging.rowCount, truncated };
    await staging.copyTo(tempParquet, metadataFor?.(outcome));
    return outcome;
  } finally {
    closeQuietly(() => appender?.closeSync());
  }
}

function asyncIteratorOf<T>(items: AsyncIterable<T> | Iterable<T>): AsyncIterator<T> | Iterator<T> {
  return Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : items[Symbol.iterator]();
}

/** The batches already read, then the rest; stopping early still closes the source. */
async function* replay(
  head: readonly ResultBatch[],
  rest: AsyncIterator<ResultBatch> | Iterator<ResultBatch>,
): AsyncGenerator<ResultBatch> {
  try {
    yield* head;
    for (let r = await rest.next(); !r.done; r = await rest.next()) yield r.value;
  } finally {
    await rest.return?.();
  }
}

function closeQuietly(close: () => void): void {
  try {
    close();
  } catch {
    // Already failing or already closed: the original error is the one worth reporting.
  }
}

class StagingTable {
  columns: ManifestColumn[] = [];
  rowCount = 0;
  private types: ReturnType<typeof duckdbTypeOf>[] = [];
  private chunk: DuckDBDataChunk | undefined;

  constructor(private readonly connection: DuckDBConnection) {}

  async create(columns: readonly ResultColumn[]): Promise<DuckDBAppender> {
    this.columns = manifestColumns(columns);
    this.types = columns.map((c) => duckdbTypeOf(c.kind));
    // Parquet needs at least one column; a result with none stores a placeholder never read back.
    const defs = this.columns.length
      ? this.columns.map((c) => `${quoteIdent(c.field)} ${physicalTypeOf(c.kind)}`).join(', ')
      : '"_no_columns" INTEGER';
    await this.connection.run(`CREATE TABLE staging (${defs})`);
    return this.connection.createAppender('staging');
  }

  async copyTo(target: string, metadata: string | undefined): Promise<void> {
    // COPY takes no bound parameters: both strings are quoted as SQL literals.
    const kv =
      metadata === undefined
        ? ''
        : `, KV_METADATA {${quoteLiteral(RESULT_METADATA_KEY)}: ${quoteLiteral(metadata)}}`;
    await this.connection.run(
      `COPY (SELECT * FROM staging) TO ${quoteLiteral(target)} (FORMAT parquet${kv})`,
    );
  }

  append(appender: DuckDBAppender, batch: ResultBatch): void {
    const width = this.columns.length;
    if (batch.columns.length !== width) {
      throw new StorageWriteError(
        `A result batch has ${batch.columns.length} columns where the first had ${width}`,
      );
    }
    if (width === 0) {
      if (batch.rows.length) throw new StorageWriteError('A result with no columns cannot hold rows');
      return;
    }
    for (let start = 0; start < batch.rows.length; start += CHUNK_ROWS) {
      const rows = batch.rows.slice(start, start + CHUNK_ROWS);
      const values: DuckDBValue[][] = this.columns.map(() => new Array<DuckDBValue>(rows.length));
      rows.forEach((row, r) => {
        if (row.length !== width)
          throw new StorageWriteError(`A result row has ${row.length} cells for ${width} columns`);
        for (let c = 0; c < width; c++) values[c]![r] = encodeCell(this.columns[c]!, row[c] ?? null);
      });
      // One chunk, reused: a chunk's native memory is freed only when V8 collects the object,
      // and V8 does not see that memory, so a new chunk per 2048 rows piled up hundreds of MB.
      this.chunk ??= DuckDBDataChunk.create(this.types);
      this.chunk.reset();
      this.chunk.setColumns(values);
      appender.appendDataChunk(this.chunk);
      this.rowCount += rows.length;
    }
  }
}
