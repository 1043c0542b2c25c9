/**
 * A result's manifest entry is kept inside its own parquet file, as the key-value metadata entry
 * RESULT_METADATA_KEY, rather than in a manifest file beside it: creating a file is the costliest
 * filesystem call of a run (the e2e bench prints its cost for the storage folder), and a run
 * already creates its folder, its parquet file and its trace. The file is renamed into place whole, so its entry is
 * there exactly when the result is; the run's manifest is the set of files in its folder that carry
 * an entry naming that tenant, run and result.
 */
import type { ParquetWriteFacts } from './parquet-outcome';
import type { ManifestEntry } from './result-store';

export const RESULT_METADATA_KEY = 'nl2sql.result';

export interface ResultIdentity {
  readonly tenant: string;
  readonly requestId: string;
  readonly resultId: string;
}

interface StoredMetadata {
  readonly version: 1;
  readonly tenant_id: string;
  readonly request_id: string;
  readonly entry: ManifestEntry;
}

/** The entry of a result, from what its writer learnt of the rows (columns, count, truncation). */
export function encodeResultMetadata(id: ResultIdentity, facts: ParquetWriteFacts): string {
  const stored: StoredMetadata = {
    version: 1,
    tenant_id: id.tenant,
    request_id: id.requestId,
    entry: {
      result_id: id.resultId,
      file: `${id.resultId}.parquet`,
      format: 'parquet',
      columns: facts.columns,
      row_count: facts.rowCount,
      truncated: facts.truncated,
      written_at: new Date().toISOString(),
    },
  };
  return JSON.stringify(stored);
}

/**
 * The entry, or null when the text is missing, unreadable, or names another tenant, run or result
 * (a file copied or moved from elsewhere is not this result).
 */
export function decodeResultMetadata(text: string | null, id: ResultIdentity): ManifestEntry | null {
  if (text === null) return null;
  let stored: StoredMetadata;
  try {
    stored = JSON.parse(text) as StoredMetadata;
  } catch {
    return null;
  }
  const entry = stored?.entry;
  const matches =
    stored?.version === 1 &&
    stored.tenant_id === id.tenant &&
    stored.request_id === id.requestId &&
    entry?.result_id === id.resultId &&
    Array.isArray(entry.columns);
  return matches ? entry : null;
}
