/**
 * Result artifacts on local disk: `<root>/<tenant>/<request_id>/<result_id>.parquet`, each holding
 * its own manifest entry in its footer (result-metadata.ts). Reads go only to files of the
 * caller's tenant folder whose entry names that tenant, run and result, and every way of missing
 * (bad token, unknown run, other tenant, a file without its entry) is the same 404.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { ResultBatch } from '../datasources/adapter';
import { EngineError } from '../errors';
import { redact } from '../../config/redact';
import { makeFolder } from './atomic-file';
import { openArrowExport } from './arrow-export-stream';
import { CsvExportStream } from './csv-export-stream';
import { isPlainToken } from './ids';
import { validatePageRequest } from './page-request';
import { ParquetReader } from './parquet-reader';
import { writeParquetAtomic } from './parquet-writer';
import { decodeResultMetadata, encodeResultMetadata, type ResultIdentity } from './result-metadata';
import type {
  ManifestEntry,
  PageRequest,
  ResultPage,
  ResultStore,
  StoredResult,
  WriteResultOptions,
} from './result-store';
import { StorageWriteError, resultNotFound } from './storage-errors';

const PARQUET_SUFFIX = '.parquet';

export class LocalResultStore implements ResultStore {
  private readonly reader = new ParquetReader();

  /**
   * `root` is `storage.results.path`. `scratchDir` holds the CSV slices of an export while it
   * streams (default: the OS temp folder, never the result folders, whose age drives the purge);
   * `csvSliceBytes` is the size a slice aims at (tests set it small to see many slices).
   */
  constructor(
    readonly root: string,
    private readonly options: { readonly scratchDir?: string; readonly csvSliceBytes?: number } = {},
  ) {}

  async writeResult(
    tenant: string,
    requestId: string,
    resultId: string,
    batches: AsyncIterable<ResultBatch> | Iterable<ResultBatch>,
    options: WriteResultOptions = {},
  ): Promise<StoredResult> {
    for (const [name, value] of [
      ['tenant', tenant],
      ['request_id', requestId],
      ['result_id', resultId],
    ] as const) {
      if (!isPlainToken(value)) {
        throw new StorageWriteError(`${name} must be a plain token (letters, digits, _ and -)`, {
          field: name,
        });
      }
    }
    const id: ResultIdentity = { tenant, requestId, resultId };
    const finalPath = join(this.root, tenant, requestId, `${resultId}${PARQUET_SUFFIX}`);
    try {
      makeFolder(dirname(finalPath));
      const outcome = await writeParquetAtomic(
        finalPath,
        batches,
        options.columns,
        (facts) =>
          encodeResultMetadata(id, { ...facts, truncated: facts.truncated || options.truncated === true }),
        options.sampleRows ?? 0,
      );
      return {
        ref: {
          uri: pathToFileURL(finalPath).href,
          format: 'parquet',
          row_count: outcome.rowCount,
          columns: outcome.columns.map((c) => c.name),
        },
        sample: outcome.sample,
      };
    } catch (err) {
      // The adapter's own errors (timeouts, cancellations) pass through with their codes.
      if (err instanceof EngineError) throw err;
      const message = err instanceof Error ? err.message : String(err);
      throw new StorageWriteError(`Writing result ${resultId} failed: ${redact(message)}`);
    }
  }

  async readPage(
    tenant: string,
    requestId: string,
    resultId: string,
    page: PageRequest = {},
  ): Promise<ResultPage> {
    const { offset, limit } = validatePageRequest(page);
    const connection = await this.reader.connect();
    try {
      const { entry, path } = await this.locate(connection, { tenant, requestId, resultId });
      // The entry was written into the same footer as the rows: its count is the file's.
      const total = entry.row_count;
      const rows = await this.reader.readRows(
        connection,
        path,
        entry.columns,
        offset,
        Math.min(total, offset + limit),
      );
      const reached = offset + rows.length;
      return {
        request_id: requestId,
        result_id: resultId,
        columns: entry.columns.map((c) => c.name),
        rows,
        offset,
        limit,
        total_rows: total,
        next_offset: reached < total ? reached : null,
      };
    } finally {
      connection.closeSync();
    }
  }

  async streamCsv(tenant: string, requestId: string, resultId: string): Promise<Readable> {
    const connection = await this.reader.connect();
    try {
      const { entry, path } = await this.locate(connection, { tenant, requestId, resultId });
      const totalRows = entry.row_count;
      const rowGroupEnds = await this.reader.rowGroupEnds(connection, path);
      return new CsvExportStream({
        reader: this.reader,
        connection,
        path,
        columns: entry.columns,
        totalRows,
        rowGroupEnds,
        scratchDir: this.options.scratchDir,
        sliceTargetBytes: this.options.csvSliceBytes,
      });
    } catch (err) {
      connection.closeSync();
      throw err;
    }
  }

  async streamArrow(
    tenant: string,
    requestId: string,
    resultId: string,
    page?: PageRequest,
  ): Promise<Readable> {
    const valid = page && validatePageRequest(page);
    const connection = await this.reader.connect();
    try {
      const { entry, path } = await this.locate(connection, { tenant, requestId, resultId });
      const range = valid && {
        start: valid.offset,
        end: Math.max(valid.offset, Math.min(entry.row_count, valid.offset + valid.limit)),
      };
      const rowGroupEnds = await this.reader.rowGroupEnds(connection, path);
      return await openArrowExport({
        connection,
        connect: () => this.reader.connect(),
        path,
        entry,
        requestId,
        rowGroupEnds,
        range,
      });
    } catch (err) {
      connection.closeSync();
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.reader.close();
  }

  /**
   * The manifest entry and the file of one result, or the one not-found error: a bad token, no
   * such file (or no parquet file), or a file whose entry names another tenant, run or result.
   */
  private async locate(
    connection: DuckDBConnection,
    id: ResultIdentity,
  ): Promise<{ entry: ManifestEntry; path: string }> {
    if (!isPlainToken(id.tenant) || !isPlainToken(id.requestId) || !isPlainToken(id.resultId))
      throw resultNotFound();
    // The path is built from validated tokens, never taken from a file's text.
    const path = join(this.root, id.tenant, id.requestId, `${id.resultId}${PARQUET_SUFFIX}`);
    const entry = decodeResultMetadata(await this.reader.resultMetadata(connection, path), id);
    if (!entry) throw resultNotFound();
    return { entry, path };
  }
}
