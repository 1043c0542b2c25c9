/** DuckDB values (from `@duckdb/node-api`) to JSON-safe cells; see `../cells.ts` for the rules. */
import {
  DuckDBBlobValue,
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBTimestampMillisecondsValue,
  DuckDBTimestampNanosecondsValue,
  DuckDBTimestampSecondsValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  type DuckDBValue,
} from '@duckdb/node-api';
import type { Cell } from '../adapter';
import { blobCell, decimalCell, scalarCell, timestampTextCell } from '../cells';

export function duckdbCell(value: DuckDBValue): Cell {
  const scalar = scalarCell(value);
  if (scalar !== undefined) return scalar;
  if (value instanceof DuckDBDecimalValue) return decimalCell(value.toString());
  if (value instanceof DuckDBBlobValue) return blobCell(value.bytes);
  if (value instanceof DuckDBDateValue) return value.toString();
  if (value instanceof DuckDBTimestampTZValue) return isoInstant(value.toString());
  if (
    value instanceof DuckDBTimestampValue ||
    value instanceof DuckDBTimestampSecondsValue ||
    value instanceof DuckDBTimestampMillisecondsValue ||
    value instanceof DuckDBTimestampNanosecondsValue
  ) {
    return timestampTextCell(value.toString());
  }
  // time, interval, uuid, lists, structs, maps: DuckDB's own text form
  return String(value);
}

/** `2024-01-02 03:04:05+00` -> `2024-01-02T03:04:05Z`; other offsets are kept. */
function isoInstant(text: string): string {
  return text.replace(' ', 'T').replace(/\+00(:00)?$/, 'Z');
}
