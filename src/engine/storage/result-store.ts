/**
 * The result store's contract. The local implementation keeps parquet files on disk; an object
 * store (S3 API) can implement the same interface so that replicas share results.
 */
import type { Readable } from 'node:stream';
import type { Cell, ResultBatch } from '../datasources/adapter';
import type { TypeKind } from '../datasources/schema';

/** Spec ArtifactRef: where a run's full result lives. */
export interface ArtifactRef {
  readonly uri: string;
  readonly format: 'parquet';
  readonly row_count: number;
  readonly columns: string[];
}

/** Spec ResultPage. `rows[i]` is row `offset + i`; `limit` is the page size after the cap. */
export interface ResultPage {
  readonly request_id: string;
  readonly result_id: string;
  readonly columns: string[];
  readonly rows: (string | number | boolean | null)[][];
  readonly offset: number;
  readonly limit: number;
  readonly total_rows: number;
  readonly next_offset: number | null;
}

export interface ManifestColumn {
  /** The column's name as the query returned it (may repeat across columns). */
  readonly name: string;
  readonly kind: TypeKind;
  /** The column's name inside the parquet file: unique, case-insensitively. */
  readonly field: string;
}

export interface ManifestEntry {
  readonly result_id: string;
  readonly file: string;
  readonly format: 'parquet';
  readonly columns: readonly ManifestColumn[];
  readonly row_count: number;
  readonly truncated: boolean;
  readonly written_at: string;
}

/** A written result: where it is, and its first rows as stored. */
export interface StoredResult {
  readonly ref: ArtifactRef;
  /**
   * The first `sampleRows` rows as the file holds them (a page from offset 0 gives the same cells):
   * a value the column's kind could not hold exactly is there as its text, as in the file.
   */
  readonly sample: Cell[][];
}

export interface WriteResultOptions {
  /** How many first rows `StoredResult.sample` holds (default 0). */
  readonly sampleRows?: number;
  /** The sub-query feeding this result was cut at its row cap (also taken from a batch's own flag). */
  readonly truncated?: boolean;
  /** Columns to record when the iterator yields no batch at all. */
  readonly columns?: ResultBatch['columns'];
}

export interface PageRequest {
  /** Default 0. */
  readonly offset?: number;
  /** Default 100; cut to 1000. */
  readonly limit?: number;
}

export abstract class ResultStore {
  /**
   * Streams the batches into `<tenant>/<request_id>/<result_id>.parquet`, its manifest entry in its
   * footer. Whatever the database returned is stored: each column's kind is chosen from its values
   * (a declared type they do not fit is widened), and the manifest records the kinds stored.
   */
  abstract writeResult(
    tenant: string,
    requestId: string,
    resultId: string,
    batches: AsyncIterable<ResultBatch> | Iterable<ResultBatch>,
    options?: WriteResultOptions,
  ): Promise<StoredResult>;
  /** One page, reading only the requested slice. */
  abstract readPage(
    tenant: string,
    requestId: string,
    resultId: string,
    page?: PageRequest,
  ): Promise<ResultPage>;
  /** The whole result as UTF-8 CSV, header first, produced slice by slice as the reader pulls. */
  abstract streamCsv(tenant: string, requestId: string, resultId: string): Promise<Readable>;
  /**
   * The whole result (or one page of it) as an Arrow IPC stream with typed columns, built batch by
   * batch as the reader pulls.
   */
  abstract streamArrow(
    tenant: string,
    requestId: string,
    resultId: string,
    page?: PageRequest,
  ): Promise<Readable>;
  abstract close(): Promise<void>;
}
