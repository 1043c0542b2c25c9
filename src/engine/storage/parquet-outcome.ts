/** What writing a result's Parquet file learnt of it, and how its key-value metadata is made from that. */
import type { ManifestColumn } from './result-store';

export interface ParquetWriteOutcome {
  readonly columns: ManifestColumn[];
  readonly rowCount: number;
  /** A batch said the adapter cut the result at its row cap. */
  readonly truncated: boolean;
}

/**
 * Key-value metadata for the file, made from what the writer learnt of the result (columns, rows,
 * truncation) before it writes the footer: the result store keeps each result's entry there.
 */
export type MetadataFor = (outcome: ParquetWriteOutcome) => string;
