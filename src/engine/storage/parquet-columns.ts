/**
 * How result columns are laid out in parquet and turned back into JSON-safe cells.
 *
 * Only kinds whose JSON cells round-trip exactly get a native parquet type: integer (BIGINT),
 * float (DOUBLE) and boolean. Every other kind (decimal, dates, times, json, blob, text, other)
 * is stored as the text the adapter produced, so a page returns exactly the cells the run saw:
 * a decimal's precision, a timestamp's zone suffix, a blob's base64 are never re-formatted.
 */
import { BIGINT, BOOLEAN, DOUBLE, VARCHAR, type DuckDBType } from '@duckdb/node-api';
import type { Cell, ResultColumn } from '../datasources/adapter';
import type { TypeKind } from '../datasources/schema';
import type { ManifestColumn } from './result-store';
import { StorageWriteError } from './storage-errors';

export type PhysicalType = 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'VARCHAR';

export function physicalTypeOf(kind: TypeKind): PhysicalType {
  switch (kind) {
    case 'integer':
      return 'BIGINT';
    case 'float':
      return 'DOUBLE';
    case 'boolean':
      return 'BOOLEAN';
    case 'decimal':
    case 'text':
    case 'date':
    case 'timestamp':
    case 'time':
    case 'blob':
    case 'json':
    case 'other':
      return 'VARCHAR';
  }
}

export function duckdbTypeOf(kind: TypeKind): DuckDBType {
  const physical = physicalTypeOf(kind);
  return physical === 'BIGINT'
    ? BIGINT
    : physical === 'DOUBLE'
      ? DOUBLE
      : physical === 'BOOLEAN'
        ? BOOLEAN
        : VARCHAR;
}

/** `file_row_number` is the virtual column paging filters on, so no stored field may take it. */
const RESERVED_FIELDS = new Set(['file_row_number']);

/**
 * Parquet field names: the query's names where possible, made unique case-insensitively (DuckDB
 * identifiers ignore case, and `SELECT a.id, b.id` repeats a name).
 */
export function manifestColumns(columns: readonly ResultColumn[]): ManifestColumn[] {
  const taken = new Set(RESERVED_FIELDS);
  return columns.map((col, i) => {
    const base = col.name.length > 0 ? col.name : `column_${i + 1}`;
    let field = base;
    for (let n = 2; taken.has(field.toLowerCase()); n++) field = `${base}_${n}`;
    taken.add(field.toLowerCase());
    return { name: col.name, kind: col.kind, field };
  });
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function cellError(column: ManifestColumn, cell: Cell): StorageWriteError {
  return new StorageWriteError(
    `A ${typeof cell} value does not fit result column "${column.name}" (${column.kind})`,
    {
      column: column.name,
      kind: column.kind,
    },
  );
}

/**
 * One cell as the DuckDB value its physical column takes. The column's kind was chosen so that
 * every cell fits it (stored-kinds.ts); a text column takes any cell as its text.
 */
export function encodeCell(column: ManifestColumn, cell: Cell): bigint | number | boolean | string | null {
  if (cell === null || cell === undefined) return null;
  switch (physicalTypeOf(column.kind)) {
    case 'BIGINT': {
      let big: bigint;
      if (typeof cell === 'number' && Number.isInteger(cell)) big = BigInt(cell);
      else if (typeof cell === 'string' && /^[+-]?\d+$/.test(cell.trim())) big = BigInt(cell.trim());
      else throw cellError(column, cell);
      if (big < INT64_MIN || big > INT64_MAX) throw cellError(column, cell);
      return big;
    }
    case 'DOUBLE': {
      if (typeof cell === 'number') return cell;
      if (typeof cell === 'string' && NON_FINITE_TEXT.has(cell)) return Number(cell);
      throw cellError(column, cell);
    }
    case 'BOOLEAN': {
      if (typeof cell === 'boolean') return cell;
      throw cellError(column, cell);
    }
    case 'VARCHAR':
      return typeof cell === 'string' ? cell : String(cell);
  }
}

/** How adapters give a float that is not a finite number (cells.ts: numberCell). */
const NON_FINITE_TEXT = new Set(['NaN', 'Infinity', '-Infinity']);

/** A stored value back as the JSON-safe cell the adapter contract describes. */
export function decodeCell(kind: TypeKind, value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'boolean') return value;
  // Only the four stored types reach here; a DuckDB value object would print through its toString.
  const text = typeof value === 'string' ? value : (value as { toString(): string }).toString();
  if (kind === 'decimal') {
    // The adapter gives a decimal as a number when the double prints back to the same text, and
    // as a string otherwise; the stored text tells which it was.
    const n = Number(text);
    return Number.isFinite(n) && String(n) === text ? n : text;
  }
  return text;
}
