/**
 * Result artifacts on local disk: `<root>/<tenant>/<request_id>/<result_id>.parquet` plus the
 * run's `manifest.json`. Reads go only through the manifest of the caller's tenant folder, and
 * every way of missing (bad token, unknown run, other tenant, unlisted result) is the same 404.
 */
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { ResultBatch } from '../datasources/adapter';
import { EngineError } from '../errors';
import { redact } from '../../config/redact';
import { CsvExportStream } from './csv-export-stream';
import { isPlainToken } from './ids';
import { readManifestFile, upsertManifestEntry } from './manifest-file';
import { validatePageRequest } from './page-request';
import { ParquetReader } from './parquet-reader';
import { writeParquetAtomic } from './parquet-writer';
import type {
  ArtifactRef,
  ManifestEntry,
  PageRequest,
  ResultManifest,
  ResultPage,
  ResultStore,
  WriteResultOptions,
} from './result-store';
import { StorageWriteError, resultNotFound } from './storage-errors';

export const MANIFEST_FILE = 'manifest.json';

export class LocalResultStore implements ResultStore {
  private readonly reader = new ParquetReader();

  /**
   * `root` is `storage.results.path`. `scratchDir` holds one CSV slice at a time while an export
   * streams (default: the OS temp folder, never the result folders, whose age drives the purge).
   */
  constructor(
    readonly root: string,
    private readonly options: { readonly scratchDir?: string } = {},
  ) {}

  async writeResult(
    tenant: string,
    requestId: string,
    resultId: string,
    batches: AsyncIterable<ResultBatch> | Iterable<ResultBatch>,
    options: WriteResultOptions = {},
  ): Promise<ArtifactRef> {
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
    const dir = join(this.root, tenant, requestId);
    const file = `${resultId}.parquet`;
    const finalPath = join(dir, file);
    try {
      // mkdir names the first folder it made: the run's own folder is new, so is its manifest.
      const made = await mkdir(dir, { recursive: true });
      const outcome = await writeParquetAtomic(finalPath, batches, options.columns);
      const entry: ManifestEntry = {
        result_id: resultId,
        file,
        format: 'parquet',
        columns: outcome.columns,
        row_count: outcome.rowCount,
        truncated: outcome.truncated || options.truncated === true,
        written_at: new Date().toISOString(),
      };
      await upsertManifestEntry(
        join(dir, MANIFEST_FILE),
        { tenantId: tenant, requestId },
        entry,
        made !== undefined,
      );
      return {
        uri: pathToFileURL(finalPath).href,
        format: 'parquet',
        row_count: outcome.rowCount,
        columns: outcome.columns.map((c) => c.name),
      };
    } catch (err) {
      // The adapter's own errors (timeouts, cancellations) pass through with their codes.
      if (err instanceof EngineError) throw err;
      const message = err instanceof Error ? err.message : String(err);
      throw new StorageWriteError(`Writing result ${resultId} failed: ${redact(message)}`);
    }
  }

  async readManifest(tenant: string, requestId: string): Promise<ResultManifest> {
    if (!isPlainToken(tenant) || !isPlainToken(requestId)) throw resultNotFound();
    const manifest = await readManifestFile(join(this.root, tenant, requestId, MANIFEST_FILE));
    if (!manifest || manifest.tenant_id !== tenant || manifest.request_id !== requestId)
      throw resultNotFound();
    return manifest;
  }

  async readPage(
    tenant: string,
    requestId: string,
    resultId: string,
    page: PageRequest = {},
  ): Promise<ResultPage> {
    const { offset, limit } = validatePageRequest(page);
    const { entry, path } = await this.locate(tenant, requestId, resultId);
    const connection = await this.reader.connect();
    try {
      const total = await this.reader.totalRows(connection, path);
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
    const { entry, path } = await this.locate(tenant, requestId, resultId);
    const connection = await this.reader.connect();
    try {
      const totalRows = await this.reader.totalRows(connection, path);
      const rowGroupEnds = await this.reader.rowGroupEnds(connection, path);
      return new CsvExportStream({
        reader: this.reader,
        connection,
        path,
        columns: entry.columns,
        totalRows,
        rowGroupEnds,
        scratchDir: this.options.scratchDir,
      });
    } catch (err) {
      connection.closeSync();
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.reader.close();
  }

  /** The manifest entry and the file of one result, or the one not-found error. */
  private async locate(
    tenant: string,
    requestId: string,
    resultId: string,
  ): Promise<{ entry: ManifestEntry; path: string }> {
    if (!isPlainToken(resultId)) throw resultNotFound();
    const manifest = await this.readManifest(tenant, requestId);
    const entry = manifest.results.find((e) => e.result_id === resultId);
    if (!entry) throw resultNotFound();
    // The path is rebuilt from validated tokens, never taken from the manifest's text.
    const path = join(this.root, tenant, requestId, `${resultId}.parquet`);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) throw resultNotFound();
    return { entry, path };
  }
}
