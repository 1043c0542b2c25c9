/**
 * The CSV export of one saved result: the header (written by csv-stringify), then the rows slice
 * by slice, at most SLICES_AHEAD slices ahead of the one the consumer is taking. A slice is
 * written by DuckDB's CSV writer into a scratch file outside the result folders and read back in
 * small chunks, so the process never holds a slice and the scratch disk holds at most the one being
 * read and the SLICES_AHEAD being written.
 * Slices follow the parquet row groups (see `nextSliceEnd`) and hold about SLICE_TARGET_BYTES of
 * CSV, estimated from the bytes per row seen so far.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { stringify } from 'csv-stringify/sync';
import { randomBytes } from 'node:crypto';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { nextSliceEnd } from './csv-slices';
import type { ParquetReader } from './parquet-reader';
import type { ManifestColumn } from './result-store';

const SLICE_TARGET_BYTES = 32 * 1024 * 1024;
/** Small, so the first bytes leave quickly; later slices are sized from what it weighed. */
const FIRST_SLICE_ROWS = 8192;
const READ_CHUNK_BYTES = 256 * 1024;
/**
 * Slices DuckDB writes while the current one is read. The reader runs each query on one thread
 * (see parquet-reader.ts), so two slices at once use two cores; `npm run bench -- results`
 * compares the export with DuckDB's own COPY (bench/README.md).
 */
const SLICES_AHEAD = 2;

export interface CsvExportSource {
  readonly reader: ParquetReader;
  readonly connection: DuckDBConnection;
  readonly path: string;
  readonly columns: readonly ManifestColumn[];
  readonly totalRows: number;
  /** Row-group ends from the file's metadata (`ParquetReader.rowGroupEnds`). */
  readonly rowGroupEnds: readonly number[];
  /** Where slices are staged; the OS temp folder by default. */
  readonly scratchDir?: string;
  /** The CSV bytes a slice aims at; SLICE_TARGET_BYTES by default. */
  readonly sliceTargetBytes?: number;
}

export function csvHeader(columns: readonly ManifestColumn[]): string {
  return columns.length ? stringify([columns.map((c) => c.name)]) : '';
}

interface OpenSlice {
  readonly file: string;
  readonly handle: FileHandle;
}

/** A slice being written by DuckDB, or written and opened for reading. */
interface PendingSlice {
  readonly rows: number;
  readonly file: string;
  readonly ready: Promise<OpenSlice>;
}

export class CsvExportStream extends Readable {
  private nextRow = 0;
  private wantedRows = FIRST_SLICE_ROWS;
  private headerSent = false;
  private slice: OpenSlice | undefined;
  /** Slices started ahead of the one being read, oldest first. */
  private readonly ahead: PendingSlice[] = [];
  /** Connections not writing a slice now; a slice writes on its own connection. */
  private readonly spare: DuckDBConnection[] = [];
  /** Every connection the stream writes slices on (the source's and those it opened), closed with it. */
  private readonly connections: DuckDBConnection[] = [];
  private inFlight: Promise<void> | undefined;
  private sizedFromFirst = false;

  constructor(private readonly source: CsvExportSource) {
    super();
    this.spare.push(source.connection);
    this.connections.push(source.connection);
  }

  override _read(): void {
    if (this.inFlight) return;
    this.inFlight = this.nextChunk().then(
      (chunk) => {
        // Cleared before pushing: a push may call _read again at once.
        this.inFlight = undefined;
        if (!this.destroyed) this.push(chunk);
      },
      (err: unknown) => {
        this.inFlight = undefined;
        this.destroy(err instanceof Error ? err : new Error(String(err)));
      },
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // Slices still being produced must finish before their files and connections are released.
    void (this.inFlight ?? Promise.resolve())
      .then(() => this.closeSlice())
      .then(() => this.dropAhead())
      .then(
        () => {
          for (const connection of this.connections) {
            try {
              connection.closeSync();
            } catch {
              // Already closed.
            }
          }
          callback(error);
        },
        (cleanupError: unknown) => callback(error ?? (cleanupError as Error)),
      );
  }

  /** The next piece of CSV, or null at the end. */
  private async nextChunk(): Promise<Buffer | null> {
    if (!this.headerSent) {
      this.headerSent = true;
      const header = csvHeader(this.source.columns);
      if (header) return Buffer.from(header, 'utf8');
    }
    for (;;) {
      if (this.slice) {
        const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
        const { bytesRead } = await this.slice.handle.read(buffer, 0, buffer.length, null);
        if (bytesRead > 0) return buffer.subarray(0, bytesRead);
        await this.closeSlice();
      }
      await this.startSlices();
      const next = this.ahead.shift();
      if (!next) return null;
      this.slice = await next.ready;
      if (!this.sizedFromFirst) {
        this.sizedFromFirst = true;
        const { size } = await this.slice.handle.stat();
        this.wantedRows =
          (this.source.sliceTargetBytes ?? SLICE_TARGET_BYTES) / Math.max(1, size / next.rows);
      }
      await this.startSlices();
    }
  }

  /** Starts slices until SLICES_AHEAD are under way (only the first until its size is known). */
  private async startSlices(): Promise<void> {
    const { columns, totalRows, rowGroupEnds } = this.source;
    const limit = this.sizedFromFirst ? SLICES_AHEAD : 1;
    while (this.ahead.length < limit && this.nextRow < totalRows && columns.length) {
      const start = this.nextRow;
      const end = Math.min(totalRows, nextSliceEnd(start, rowGroupEnds, this.wantedRows));
      if (end <= start) return;
      this.nextRow = end;
      const connection = this.spare.pop() ?? (await this.newConnection());
      const file = join(
        this.source.scratchDir ?? tmpdir(),
        `nl2sql-csv-${randomBytes(8).toString('hex')}.csv`,
      );
      const ready = this.writeSlice(connection, start, end, file);
      // Rejections are taken by whoever awaits the slice; this keeps an unread one from going unhandled.
      ready.catch(() => undefined);
      this.ahead.push({ rows: end - start, file, ready });
    }
  }

  private async writeSlice(
    connection: DuckDBConnection,
    start: number,
    end: number,
    file: string,
  ): Promise<OpenSlice> {
    const { reader, path, columns } = this.source;
    try {
      await reader.copyCsvSlice(connection, path, columns, start, end, file);
      return { file, handle: await open(file, 'r') };
    } catch (err) {
      await rm(file, { force: true });
      throw err;
    } finally {
      this.spare.push(connection);
    }
  }

  private async newConnection(): Promise<DuckDBConnection> {
    const connection = await this.source.reader.connect();
    this.connections.push(connection);
    return connection;
  }

  private async dropAhead(): Promise<void> {
    const pending = this.ahead.splice(0);
    for (const slice of pending) {
      const opened = await slice.ready.catch(() => undefined);
      await opened?.handle.close().catch(() => undefined);
      await rm(slice.file, { force: true });
    }
  }

  private async closeSlice(): Promise<void> {
    const slice = this.slice;
    this.slice = undefined;
    if (!slice) return;
    await slice.handle.close().catch(() => undefined);
    await rm(slice.file, { force: true });
  }
}
