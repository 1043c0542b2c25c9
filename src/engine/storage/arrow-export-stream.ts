/**
 * One saved result as an Arrow IPC stream (`application/vnd.apache.arrow.stream`): the schema
 * message, then one record batch after another, then the end-of-stream marker; apache-arrow's
 * writer encodes the messages.
 *
 * Batches follow the Parquet artifact's row groups as CSV slices do (csv-slices.ts): a batch reads
 * whole row groups while they fit the wanted size, sized after the first from the bytes per row it
 * held. Each batch is two DuckDB queries over its rows (the values row by row, and each text
 * column's bytes in one piece), run while the batch before it is built and sent, so DuckDB's
 * thread and the event loop work at the same time. The process holds the batch being built and the
 * one being read ahead, never the result. Destroying the stream (a client that went away) waits for
 * the query under way and closes the DuckDB connection, which lets go of the file.
 */
import { DuckDBBlobVector, type DuckDBConnection, type DuckDBDataChunk } from '@duckdb/node-api';
import {
  AsyncByteQueue,
  makeData,
  RecordBatch,
  RecordBatchStreamWriter,
  Struct,
  type Schema,
} from 'apache-arrow';
import { Readable } from 'node:stream';
import { setImmediate as turnOfTheLoop } from 'node:timers/promises';
import { columnBuilder } from './arrow-builders';
import { arrowSchema, parquetSource, planArrowColumns, type ArrowColumnPlan } from './arrow-columns';
import { nextSliceEnd } from './csv-slices';
import type { ManifestEntry } from './result-store';

export const ARROW_STREAM_MEDIA_TYPE = 'application/vnd.apache.arrow.stream';

/** Small, so the first rows leave quickly; later batches are sized from what it weighed. */
const FIRST_BATCH_ROWS = 8192;
/**
 * What a later batch aims at: about one row group of DuckDB's writer (122,880 rows) for narrow
 * rows, fewer for wide ones. Readers handle batches of this size best; 2048-row chunks, one batch
 * each, would make a 2-million-row result a thousand batches.
 */
const BATCH_TARGET_BYTES = 8 * 1024 * 1024;
const MAX_BATCH_ROWS = 131_072;
/**
 * Batches DuckDB reads (each on a connection of its own, one thread: parquet-reader.ts) while the
 * current one is built and sent. One already keeps both cores busy, DuckDB's thread and the event
 * loop; with two, the 2-million-row bench was no faster within its noise and each download held
 * 20-30 MB more (bench/README.md).
 */
const BATCHES_AHEAD = 1;

export interface ArrowExportSource {
  /** Used for the export alone, and closed with it. */
  readonly connection: DuckDBConnection;
  /** Opens another connection to read a batch ahead on (closed with the export). */
  readonly connect: () => Promise<DuckDBConnection>;
  readonly path: string;
  readonly entry: ManifestEntry;
  readonly requestId: string;
  /** Row-group ends from the file's metadata (`ParquetReader.rowGroupEnds`). */
  readonly rowGroupEnds: readonly number[];
  /** Rows `[start, end)` in file order; the whole result when absent. */
  readonly range?: { readonly start: number; readonly end: number };
}

/** Schema metadata: what the result is, for a reader that holds only the bytes. */
function schemaMetadata(source: ArrowExportSource): Map<string, string> {
  const { entry, requestId, range } = source;
  return new Map([
    ['nl2sql.request_id', requestId],
    ['nl2sql.result_id', entry.result_id],
    ['nl2sql.total_rows', String(entry.row_count)],
    ['nl2sql.truncated', String(entry.truncated)],
    ['nl2sql.first_row', String(range?.start ?? 0)],
  ]);
}

/**
 * Plans the columns (which reads the file's types and, for text columns of a typed kind, checks
 * their values), so that a failure surfaces before the first byte.
 */
export async function openArrowExport(source: ArrowExportSource): Promise<Readable> {
  const plans = await planArrowColumns(source.connection, source.path, source.entry.columns);
  return new ArrowExportStream(source, plans, arrowSchema(plans, schemaMetadata(source)));
}

/** Parts at least this big are sent as views of the batch's own buffers, not copied. */
const VIEW_BYTES = 64 * 1024;

/**
 * The writer's sink: collects what one call wrote. The small parts (message headers, padding) are
 * joined; a column's values go out as they are, so a batch is not held twice.
 */
class CollectedBytes extends AsyncByteQueue {
  private parts: Uint8Array[] = [];

  /** The writer passes Uint8Array views only (its `_write` converts first). */
  override write(value: Parameters<AsyncByteQueue['write']>[0]): void {
    const bytes = value as Uint8Array;
    if (bytes.byteLength) this.parts.push(bytes);
  }

  take(): Buffer[] {
    const out: Buffer[] = [];
    let small: Uint8Array[] = [];
    const join = () => {
      if (small.length) out.push(Buffer.concat(small));
      small = [];
    };
    for (const part of this.parts) {
      if (part.byteLength < VIEW_BYTES) small.push(part);
      else {
        join();
        out.push(Buffer.from(part.buffer, part.byteOffset, part.byteLength));
      }
    }
    join();
    this.parts = [];
    return out;
  }
}

/** A batch's rows as DuckDB gave them, not yet built. */
interface FetchedBatch {
  readonly rows: number;
  readonly chunks: readonly DuckDBDataChunk[];
  /** Per column: the bytes of a Utf8 column, undefined for the others. */
  readonly texts: readonly (Uint8Array | undefined)[];
}

export class ArrowExportStream extends Readable {
  private readonly writer = new RecordBatchStreamWriter();
  private readonly sink = new CollectedBytes();
  private readonly end: number;
  private nextRow: number;
  private wantedRows = FIRST_BATCH_ROWS;
  private sized = false;
  private started = false;
  private ended = false;
  private inFlight: Promise<void> | undefined;
  /** Batches being read ahead of the one being built, oldest first. */
  private readonly ahead: Promise<FetchedBatch>[] = [];
  /** Connections not reading a batch now; a batch reads on a connection of its own. */
  private readonly spare: DuckDBConnection[] = [];
  /** Every connection the stream reads on (the source's and those it opened), closed with it. */
  private readonly connections: DuckDBConnection[] = [];

  constructor(
    private readonly source: ArrowExportSource,
    private readonly plans: readonly ArrowColumnPlan[],
    private readonly schema: Schema,
  ) {
    super();
    this.spare.push(source.connection);
    this.connections.push(source.connection);
    this.nextRow = source.range?.start ?? 0;
    // A result without columns has no rows to send (its file holds only a placeholder column).
    this.end = plans.length ? (source.range?.end ?? source.entry.row_count) : this.nextRow;
  }

  override _read(): void {
    if (this.inFlight) return;
    this.inFlight = this.nextBytes().then(
      (bytes) => {
        // Cleared before pushing: a push may call _read again at once.
        this.inFlight = undefined;
        if (this.destroyed) return;
        if (!bytes) this.push(null);
        else for (const part of bytes) this.push(part);
      },
      (err: unknown) => {
        this.inFlight = undefined;
        this.destroy(err instanceof Error ? err : new Error(String(err)));
      },
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // The batch being built may still start reads; the reads under way must end before the
    // connections under them are closed (closing one mid-query crashed the process).
    void (this.inFlight ?? Promise.resolve())
      .then(() => Promise.all(this.ahead.splice(0).map((batch) => batch.catch(() => undefined))))
      .then(() => {
        for (const connection of this.connections) {
          try {
            connection.closeSync();
          } catch {
            // Already closed.
          }
        }
        callback(error);
      });
  }

  /** The schema first, then one record batch per call (the last with the end marker); null after. */
  private async nextBytes(): Promise<Buffer[] | null> {
    if (!this.started) {
      this.started = true;
      this.writer.reset(this.sink, this.schema);
      return this.sink.take();
    }
    if (this.ended) return null;
    this.readAhead();
    const next = this.ahead.shift();
    if (next) {
      const fetched = await next;
      if (!this.sized) this.sizeFrom(fetched);
      // DuckDB reads the next batches while this one is built.
      this.readAhead();
      this.writer.write(await this.build(fetched));
    }
    if (this.nextRow >= this.end && !this.ahead.length) {
      this.ended = true;
      this.writer.close();
    }
    return this.sink.take();
  }

  /** Starts reads until BATCHES_AHEAD are under way (only the first until its size is known). */
  private readAhead(): void {
    if (this.destroyed) return;
    const limit = this.sized ? BATCHES_AHEAD : 1;
    while (this.ahead.length < limit && this.nextRow < this.end) {
      const batch = this.fetchNext();
      // Rejections are taken by whoever awaits the batch; this keeps an unread one from going unhandled.
      batch.catch(() => undefined);
      this.ahead.push(batch);
    }
  }

  /** Later batches hold about BATCH_TARGET_BYTES, judged by the first batch's bytes per row. */
  private sizeFrom(first: FetchedBatch): void {
    this.sized = true;
    const fixed = this.plans.reduce((n, p) => n + (p.encoding.type === 'decimal' ? 16 : 8), 0);
    const text = first.texts.reduce((n, t) => n + (t?.length ?? 0), 0);
    const perRow = fixed + text / Math.max(1, first.rows);
    this.wantedRows = Math.min(MAX_BATCH_ROWS, Math.max(1, BATCH_TARGET_BYTES / perRow));
  }

  /** Reads the next batch's rows on a connection of its own. */
  private async fetchNext(): Promise<FetchedBatch> {
    const start = this.nextRow;
    const sliceEnd = nextSliceEnd(start, this.source.rowGroupEnds, this.wantedRows);
    const end = Math.min(this.end, sliceEnd > start ? sliceEnd : this.end);
    this.nextRow = end;
    const connection = this.spare.pop() ?? (await this.newConnection());
    try {
      return await this.fetchRows(connection, start, end);
    } finally {
      this.spare.push(connection);
    }
  }

  private async newConnection(): Promise<DuckDBConnection> {
    const connection = await this.source.connect();
    this.connections.push(connection);
    return connection;
  }

  /** Rows `[start, end)`: each value, then each text column's bytes in one piece. */
  private async fetchRows(connection: DuckDBConnection, start: number, end: number): Promise<FetchedBatch> {
    const { path } = this.source;
    const where = `WHERE file_row_number >= ${Math.trunc(start)} AND file_row_number < ${Math.trunc(end)}`;
    const from = `FROM ${parquetSource(path)} ${where}`;
    // No ORDER BY: DuckDB keeps a scan's file order (`preserve_insertion_order`, on by default).
    const values = await connection.run(`SELECT ${this.plans.map((p) => p.select).join(', ')} ${from}`);
    const chunks = Array.from({ length: values.chunkCount }, (_, i) => values.getChunk(i));
    const texts: (Uint8Array | undefined)[] = this.plans.map(() => undefined);
    const textPlans = this.plans.flatMap((p, i) => (p.bytes ? [{ bytes: p.bytes, i }] : []));
    if (textPlans.length) {
      const joined = await connection.run(`SELECT ${textPlans.map((t) => t.bytes).join(', ')} ${from}`);
      const row = joined.getChunk(0);
      textPlans.forEach(({ i }, c) => {
        const vector = row.getColumnVector(c);
        if (!(vector instanceof DuckDBBlobVector)) throw new Error(`expected a BLOB, got ${vector.type}`);
        const bytes = vector.getItemBytes(0);
        // Up to 12 bytes are a view of the chunk's own memory, which goes with the chunk: copied.
        texts[i] = bytes ? (bytes.length <= 12 ? bytes.slice() : bytes) : undefined;
      });
    }
    const rows = chunks.reduce((n, chunk) => n + chunk.rowCount, 0);
    if (rows !== end - start) throw new Error(`rows ${start}-${end} of the result gave ${rows} rows`);
    return { rows, chunks, texts };
  }

  private async build(fetched: FetchedBatch): Promise<RecordBatch> {
    const builders = this.plans.map((p) => columnBuilder(p.encoding, fetched.rows));
    for (const [n, chunk] of fetched.chunks.entries()) {
      // One turn of the event loop per chunk (2048 rows) keeps other requests waiting a few ms at most.
      if (n) await turnOfTheLoop();
      builders.forEach((builder, c) => builder.append(chunk, c));
    }
    const data = makeData({
      type: new Struct(this.schema.fields),
      length: fetched.rows,
      children: builders.map((b, c) => b.finish(fetched.texts[c])),
    });
    return new RecordBatch(this.schema, data);
  }
}
