/**
 * The CSV export of one saved result: the header (written by csv-stringify), then the rows slice
 * by slice, each slice produced only when the consumer has taken the previous one. A slice is
 * written by DuckDB's CSV writer into a scratch file outside the result folders and read back in
 * small chunks, so neither the process nor the scratch disk ever holds more than one slice.
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
}

export function csvHeader(columns: readonly ManifestColumn[]): string {
  return columns.length ? stringify([columns.map((c) => c.name)]) : '';
}

interface OpenSlice {
  readonly file: string;
  readonly handle: FileHandle;
}

export class CsvExportStream extends Readable {
  private nextRow = 0;
  private wantedRows = FIRST_SLICE_ROWS;
  private headerSent = false;
  private slice: OpenSlice | undefined;
  private inFlight: Promise<void> | undefined;

  constructor(private readonly source: CsvExportSource) {
    super();
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
    // A slice still being produced must finish before its file and connection are released.
    void (this.inFlight ?? Promise.resolve())
      .then(() => this.closeSlice())
      .then(
        () => {
          try {
            this.source.connection.closeSync();
          } catch {
            // Already closed.
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
      if (!(await this.openNextSlice())) return null;
    }
  }

  private async openNextSlice(): Promise<boolean> {
    const { reader, connection, path, columns, totalRows, rowGroupEnds } = this.source;
    if (this.nextRow >= totalRows || !columns.length) return false;
    const start = this.nextRow;
    const end = Math.min(totalRows, nextSliceEnd(start, rowGroupEnds, this.wantedRows));
    if (end <= start) return false;
    const file = join(this.source.scratchDir ?? tmpdir(), `nl2sql-csv-${randomBytes(8).toString('hex')}.csv`);
    try {
      await reader.copyCsvSlice(connection, path, columns, start, end, file);
      const handle = await open(file, 'r');
      this.slice = { file, handle };
      const { size } = await handle.stat();
      this.wantedRows = SLICE_TARGET_BYTES / Math.max(1, size / (end - start));
    } catch (err) {
      await rm(file, { force: true });
      throw err;
    }
    this.nextRow = end;
    return true;
  }

  private async closeSlice(): Promise<void> {
    const slice = this.slice;
    this.slice = undefined;
    if (!slice) return;
    await slice.handle.close().catch(() => undefined);
    await rm(slice.file, { force: true });
  }
}
