/**
 * Streams result batches into one parquet file without holding the result in memory: rows go
 * through DuckDB's appender into a staging database on disk (DuckDB spills beyond its memory
 * limit), and `COPY ... (FORMAT parquet)` writes the file under a temporary name that is renamed
 * into place only when complete. A failing batch iterator leaves no file under the final name.
 * A result of at most one data chunk of rows (in any number of batches) is read into memory and
 * encoded in this process instead (small-parquet.ts).
 *
 * Column kinds follow the values (stored-kinds.ts). The staging table starts with the kinds the
 * first batch fits; when a later value fits none of them (text at row 3 million of an integer
 * column), the rows staged so far are copied into a table of the wider kinds, each value read
 * back and stored again exactly as the small path would have stored it.
 */
import {
  DuckDBDataChunk,
  DuckDBInstance,
  type DuckDBAppender,
  type DuckDBConnection,
  type DuckDBValue,
} from '@duckdb/node-api';
import { rename, rm } from 'node:fs/promises';
import type { Cell, ResultBatch, ResultColumn } from '../datasources/adapter';
import { tempPathBeside } from './atomic-file';
import {
  decodeCell,
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
import { storedRows, writeSmallParquet } from './small-parquet';
import { StorageWriteError } from './storage-errors';
import { ColumnKinds } from './stored-kinds';

export type { MetadataFor, ParquetWriteFacts, ParquetWriteOutcome } from './parquet-outcome';

/** DuckDB's vector size: a data chunk holds at most this many rows. */
const CHUNK_ROWS = 2048;
/** Bounds the staging database's buffer pool; past it DuckDB writes pages to the staging file. */
const STAGING_MEMORY_LIMIT = '64MB';

/** `sampleRows`: how many first rows the outcome gives back as stored (default none). */
export async function writeParquetAtomic(
  finalPath: string,
  batches: AsyncIterable<ResultBatch> | Iterable<ResultBatch>,
  fallbackColumns: readonly ResultColumn[] = [],
  metadataFor?: MetadataFor,
  sampleRows = 0,
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
  if (read.done) return writeSmallParquet(finalPath, head, fallbackColumns, metadataFor, sampleRows);
  try {
    return await writeStaged(finalPath, replay(head, source), fallbackColumns, metadataFor, sampleRows);
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
  sampleRows: number,
): Promise<ParquetWriteOutcome> {
  const stagingPath = tempPathBeside(finalPath, '.staging.duckdb');
  const tempParquet = tempPathBeside(finalPath, '.parquet.tmp');
  const instance = await DuckDBInstance.create(stagingPath, { memory_limit: STAGING_MEMORY_LIMIT });
  let connection: DuckDBConnection | undefined;
  try {
    connection = await instance.connect();
    const outcome = await stageAndCopy(
      new StagingTable(connection, sampleRows),
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
  try {
    let truncated = false;
    for await (const batch of batches) {
      // Read loosely: the flag is optional in the adapter contract.
      if ((batch as { truncated?: boolean }).truncated === true) truncated = true;
      await staging.append(batch);
    }
    await staging.finish(fallbackColumns);
    const facts = { columns: staging.columns, rowCount: staging.rowCount, truncated };
    await staging.copyTo(tempParquet, metadataFor?.(facts));
    return { ...facts, sample: staging.sample() };
  } finally {
    staging.abandon();
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

/**
 * The staging table and its appender. Its columns' kinds are those the rows so far fit; a batch
 * that needs wider ones restages what was appended (`widen`).
 */
class StagingTable {
  columns: ManifestColumn[] = [];
  rowCount = 0;
  private declared: readonly ResultColumn[] | undefined;
  private kinds: ColumnKinds | undefined;
  private appender: DuckDBAppender | undefined;
  private chunk: DuckDBDataChunk | undefined;
  /** The first rows as the database gave them, for the sample. */
  private readonly head: Cell[][] = [];

  constructor(
    private readonly connection: DuckDBConnection,
    private readonly sampleRows: number,
  ) {}

  async append(batch: ResultBatch): Promise<void> {
    this.declared ??= batch.columns;
    this.kinds ??= new ColumnKinds(batch.columns);
    const width = this.declared.length;
    if (batch.columns.length !== width) {
      throw new StorageWriteError(
        `A result batch has ${batch.columns.length} columns where the first had ${width}`,
      );
    }
    if (width === 0) {
      if (batch.rows.length) throw new StorageWriteError('A result with no columns cannot hold rows');
      this.appender ??= await this.create([]);
      return;
    }
    for (const row of batch.rows) {
      if (row.length !== width)
        throw new StorageWriteError(`A result row has ${row.length} cells for ${width} columns`);
      if (this.head.length < this.sampleRows) this.head.push(row);
    }
    this.kinds.observe(batch.rows);
    const wanted = manifestColumns(this.kinds.columns(this.declared));
    if (!this.appender) this.appender = await this.create(wanted);
    else if (wanted.some((c, i) => c.kind !== this.columns[i]?.kind)) await this.widen(wanted);
    this.appendRows(batch.rows);
  }

  /** Ends the appends; a result that had no batch gets the fallback columns. */
  async finish(fallbackColumns: readonly ResultColumn[]): Promise<void> {
    this.appender ??= await this.create(manifestColumns(fallbackColumns));
    this.appender.closeSync();
    this.appender = undefined;
  }

  sample(): Cell[][] {
    return storedRows(this.head, this.columns);
  }

  abandon(): void {
    closeQuietly(() => this.appender?.closeSync());
    this.appender = undefined;
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

  private async create(columns: ManifestColumn[], table = 'staging'): Promise<DuckDBAppender> {
    this.columns = columns;
    this.chunk = undefined;
    await this.connection.run(`CREATE TABLE ${table} (${columnDefs(columns)})`);
    return this.connection.createAppender(table);
  }

  /**
   * Copies the staged rows into a table of the wider kinds: each value is read back as the cell it
   * was (the old kind fitted it exactly) and encoded for its new kind, as the small path would.
   */
  private async widen(wanted: ManifestColumn[]): Promise<void> {
    const old = this.columns;
    this.appender!.closeSync();
    this.appender = undefined;
    const next = await this.create(wanted, 'staging_next');
    try {
      const result = await this.connection.stream('SELECT * FROM staging ORDER BY rowid');
      const chunk = DuckDBDataChunk.create(wanted.map((c) => duckdbTypeOf(c.kind)));
      for (
        let read = await result.fetchChunk();
        read && read.rowCount > 0;
        read = await result.fetchChunk()
      ) {
        const values = read
          .getColumns()
          .map((column, c) => column.map((v) => encodeCell(wanted[c]!, decodeCell(old[c]!.kind, v))));
        chunk.reset();
        chunk.setColumns(values);
        next.appendDataChunk(chunk);
      }
      next.closeSync();
    } catch (err) {
      closeQuietly(() => next.closeSync());
      throw err;
    }
    await this.connection.run('DROP TABLE staging');
    await this.connection.run('ALTER TABLE staging_next RENAME TO staging');
    this.appender = await this.connection.createAppender('staging');
  }

  private appendRows(batchRows: readonly Cell[][]): void {
    const width = this.columns.length;
    for (let start = 0; start < batchRows.length; start += CHUNK_ROWS) {
      const rows = batchRows.slice(start, start + CHUNK_ROWS);
      const values: DuckDBValue[][] = this.columns.map(() => new Array<DuckDBValue>(rows.length));
      rows.forEach((row, r) => {
        for (let c = 0; c < width; c++) values[c]![r] = encodeCell(this.columns[c]!, row[c] ?? null);
      });
      // One chunk, reused: a chunk's native memory is freed only when V8 collects the object,
      // and V8 does not see that memory, so a new chunk per 2048 rows piled up hundreds of MB.
      this.chunk ??= DuckDBDataChunk.create(this.columns.map((c) => duckdbTypeOf(c.kind)));
      this.chunk.reset();
      this.chunk.setColumns(values);
      this.appender!.appendDataChunk(this.chunk);
      this.rowCount += rows.length;
    }
  }
}

/** Parquet needs at least one column; a result with none stores a placeholder never read back. */
function columnDefs(columns: readonly ManifestColumn[]): string {
  return columns.length
    ? columns.map((c) => `${quoteIdent(c.field)} ${physicalTypeOf(c.kind)}`).join(', ')
    : '"_no_columns" INTEGER';
}
