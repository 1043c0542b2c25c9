/**
 * The CSV export of one saved result: the header (written by csv-stringify), then the rows in
 * slices read only when the consumer asks for more. A slice is sized to about SLICE_TARGET_BYTES
 * of CSV from the bytes per row seen so far, so wide and narrow rows alike keep memory bounded.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { stringify } from 'csv-stringify/sync';
import { Readable } from 'node:stream';
import type { ParquetReader } from './parquet-reader';
import type { ManifestColumn } from './result-store';

const SLICE_TARGET_BYTES = 4 * 1024 * 1024;
const FIRST_SLICE_ROWS = 8192;
const MIN_SLICE_ROWS = 1024;
const MAX_SLICE_ROWS = 500_000;

export interface CsvExportSource {
  readonly reader: ParquetReader;
  readonly connection: DuckDBConnection;
  readonly path: string;
  readonly columns: readonly ManifestColumn[];
  readonly totalRows: number;
}

export function csvHeader(columns: readonly ManifestColumn[]): string {
  return columns.length ? stringify([columns.map((c) => c.name)]) : '';
}

export class CsvExportStream extends Readable {
  private nextRow = 0;
  private sliceRows = FIRST_SLICE_ROWS;
  private headerSent = false;
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
    // A slice still being read must finish before its connection is closed.
    void (this.inFlight ?? Promise.resolve()).then(() => {
      try {
        this.source.connection.closeSync();
      } catch {
        // Already closed.
      }
      callback(error);
    });
  }

  /** The next piece of CSV, or null at the end. */
  private async nextChunk(): Promise<Buffer | null> {
    const { reader, connection, path, columns, totalRows } = this.source;
    if (!this.headerSent) {
      this.headerSent = true;
      const header = csvHeader(columns);
      if (header) return Buffer.from(header, 'utf8');
    }
    while (this.nextRow < totalRows && columns.length) {
      const start = this.nextRow;
      const end = Math.min(totalRows, start + this.sliceRows);
      const bytes = Buffer.from(await reader.readCsvLines(connection, path, columns, start, end), 'utf8');
      this.nextRow = end;
      const perRow = Math.max(1, bytes.length / (end - start));
      this.sliceRows = Math.max(
        MIN_SLICE_ROWS,
        Math.min(MAX_SLICE_ROWS, Math.round(SLICE_TARGET_BYTES / perRow)),
      );
      // An empty push would not ask for more, so an empty slice (none expected) is skipped.
      if (bytes.length) return bytes;
    }
    return null;
  }
}
