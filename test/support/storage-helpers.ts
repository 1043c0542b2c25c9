import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResultBatch, ResultColumn } from '../../src/engine/datasources/adapter';
import type { ManifestEntry } from '../../src/engine/storage';
import { ParquetReader } from '../../src/engine/storage/parquet-reader';
import { decodeResultMetadata } from '../../src/engine/storage/result-metadata';

export function tempRoot(label: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `nl2sql-${label}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export const NUMBERED_COLUMNS: ResultColumn[] = [
  { name: 'n', kind: 'integer' },
  { name: 'label', kind: 'text' },
];

/** `total` rows `[i, "row i"]` in batches of `batchSize`, produced lazily. */
export async function* numberedRows(total: number, batchSize = 1000): AsyncGenerator<ResultBatch> {
  for (let start = 0; start < total; start += batchSize) {
    const rows = [];
    for (let i = start; i < Math.min(total, start + batchSize); i++) rows.push([i, `row ${i}`]);
    yield { columns: NUMBERED_COLUMNS, rows };
  }
}

export async function readAll(stream: NodeJS.ReadableStream): Promise<{ text: string; chunks: number }> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return { text: Buffer.concat(parts).toString('utf8'), chunks: parts.length };
}

/**
 * The manifest entry a result's parquet file carries in its footer, read with DuckDB and checked
 * by the store's own decoder (null when the file is missing or its entry names another result).
 */
export async function storedEntry(
  root: string,
  tenant: string,
  requestId: string,
  resultId: string,
): Promise<ManifestEntry | null> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    return decodeResultMetadata(
      await new ParquetReader().resultMetadata(conn, join(root, tenant, requestId, `${resultId}.parquet`)),
      { tenant, requestId, resultId },
    );
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}
