/** What writing a result's Parquet file learnt of it, and how its key-value metadata is made from that. */
import type { Cell } from '../datasources/adapter';
import type { ManifestColumn } from './result-store';

export interface ParquetWriteFacts {
  /** With the kinds the columns were stored as (stored-kinds.ts), which the values decided. */
  readonly columns: ManifestColumn[];
  readonly rowCount: number;
  /** A batch said the adapter cut the result at its row cap. */
  readonly truncated: boolean;
}

export interface ParquetWriteOutcome extends ParquetWriteFacts {
  /** The first rows (as many as asked for) as the file holds them: what reading them back gives. */
  readonly sample: Cell[][];
}

/**
 * Key-value metadata for the file, made from what the writer learnt of the result (columns, rows,
 * truncation) before it writes the footer: the result store keeps each result's entry there.
 */
export type MetadataFor = (facts: ParquetWriteFacts) => string;
