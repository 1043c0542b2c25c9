/**
 * The bytes of one column of a DuckDB data chunk, as DuckDB holds them, through the C API calls
 * that `@duckdb/node-bindings` (the layer under `@duckdb/node-api`) exposes. A result chunk's
 * vectors are flat, and their layouts are Arrow's for the types exported here: 64-bit integers,
 * doubles, 32-bit integers and 128-bit decimals little-endian, validity one bit per row, least
 * significant bit first. Copying them whole avoids reading every value as a JavaScript value (a
 * bigint allocated per 64-bit integer), which cost most of an Arrow export's time.
 *
 * The views point into memory DuckDB owns, valid while the chunk is: copy before letting it go.
 */
import duckdb from '@duckdb/node-bindings';
import type { DuckDBDataChunk } from '@duckdb/node-api';

/** The first `rows` values of column `column`, `width` bytes each. */
export function vectorBytes(chunk: DuckDBDataChunk, column: number, rows: number, width: number): Uint8Array {
  return duckdb.vector_get_data(duckdb.data_chunk_get_vector(chunk.chunk, column), rows * width);
}

/** The validity bits of the first `rows` values, or null when every value is valid. */
export function vectorValidity(chunk: DuckDBDataChunk, column: number, rows: number): Uint8Array | null {
  const words = Math.ceil(rows / 64);
  // The binding answers null for a vector without a validity mask, though its type does not say so.
  const bits = duckdb.vector_get_validity(
    duckdb.data_chunk_get_vector(chunk.chunk, column),
    words * 8,
  ) as Uint8Array | null;
  return bits ?? null;
}
