/**
 * mysql2's `typeCast` hook for the binary protocol (the answer to a prepared statement): every value
 * becomes a cell (see `../cells.ts`), so no driver default (Date objects in local time, lossy
 * DECIMAL) decides. Numbers arrive as binary numbers (read by `next`, BIGINT as a string past
 * 2^53), decimals, dates and times as text, strings and bytes as bytes.
 */
import { TypedParameter } from 'mysql2';
import type { Cell } from '../adapter';
import { blobCell, decimalCell, genericCell, integerCell, numberCell } from '../cells';
import type { TypeKind } from '../schema';

/** The field as mysql2 hands it to `typeCast`; it does not tell the charset. */
interface CastField {
  readonly type: string;
  string(encoding?: string): string | null;
  buffer(): Buffer | null;
}

/** MySQL's `binary` character set: the column holds bytes, not text. */
export const BINARY_CHARSET = 63;

/**
 * String-like columns come back as Buffers here: whether they hold text or bytes is known only from
 * the column definitions, and `finishRow` decides with them.
 */
export function castBinaryCell(field: CastField, next: () => unknown): Cell | Buffer {
  switch (field.type) {
    case 'TINY':
    case 'SHORT':
    case 'LONG':
    case 'INT24':
    case 'YEAR':
    case 'LONGLONG': {
      const v = next() as number | string | null;
      return v === null ? null : integerCell(v);
    }
    case 'FLOAT': {
      const v = next() as number | null;
      return v === null ? null : numberCell(shortestFloat32(v));
    }
    case 'DOUBLE': {
      const v = next() as number | null;
      return v === null ? null : numberCell(v);
    }
    case 'NEWDECIMAL':
    case 'DECIMAL': {
      const s = field.string();
      return s === null ? null : decimalCell(s);
    }
    case 'DATE':
    case 'NEWDATE':
    case 'TIME':
    case 'TIME2':
      return field.string();
    case 'DATETIME':
    case 'DATETIME2': {
      const s = field.string();
      return s === null ? null : s.replace(' ', 'T');
    }
    case 'TIMESTAMP':
    case 'TIMESTAMP2': {
      // the session time zone is UTC (set when the connection is made), so this is an instant
      const s = field.string();
      return s === null ? null : `${s.replace(' ', 'T')}Z`;
    }
    case 'BIT': {
      const b = field.buffer();
      return b === null
        ? null
        : b.length === 1
          ? b[0]!
          : integerCell(BigInt(`0x${b.toString('hex') || '0'}`));
    }
    case 'TINY_BLOB':
    case 'MEDIUM_BLOB':
    case 'LONG_BLOB':
    case 'BLOB':
    case 'VAR_STRING':
    case 'STRING':
    case 'VARCHAR':
    case 'GEOMETRY':
      return field.buffer();
    case 'JSON':
      return field.string('utf8');
    default: {
      return genericCell(next());
    }
  }
}

/**
 * A FLOAT column arrives as the 4-byte float's exact value (1.1 reads 1.100000023841858); the
 * shortest decimal that is the same float is what was stored and what the text protocol shows.
 */
function shortestFloat32(v: number): number {
  if (!Number.isFinite(v)) return v;
  for (let digits = 1; digits < 17; digits++) {
    const candidate = Number(v.toPrecision(digits));
    if (Math.fround(candidate) === v) return candidate;
  }
  return v;
}

/**
 * A value as a bound parameter of a prepared statement. mysql2 would send every JavaScript number
 * as a DOUBLE: integers go as BIGINT so that `x + ?` or `SELECT ?` stay integers, as they were
 * when a literal; bigints past 2^53 as BIGINT too (a string would compare as a double).
 */
export function toMysqlParam(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return TypedParameter.LONGLONG(value);
  if (typeof value === 'bigint') {
    return value >= INT64_MIN && value <= INT64_MAX ? TypedParameter.LONGLONG(value) : value.toString();
  }
  return value;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Bytes of a binary column become base64, of a text column a UTF-8 string. */
export function finishRow(row: (Cell | Buffer)[], binary: readonly boolean[]): Cell[] {
  return row.map((v, i) => (Buffer.isBuffer(v) ? (binary[i] ? blobCell(v) : v.toString('utf8')) : v));
}

/** mysql2 field type names to kinds (for result columns). */
export function kindOfField(type: string | undefined, binary: boolean): TypeKind {
  switch (type) {
    case 'TINY':
    case 'SHORT':
    case 'LONG':
    case 'INT24':
    case 'LONGLONG':
    case 'YEAR':
      return 'integer';
    case 'NEWDECIMAL':
    case 'DECIMAL':
      return 'decimal';
    case 'FLOAT':
    case 'DOUBLE':
      return 'float';
    case 'DATE':
    case 'NEWDATE':
      return 'date';
    case 'TIME':
    case 'TIME2':
      return 'time';
    case 'DATETIME':
    case 'DATETIME2':
    case 'TIMESTAMP':
    case 'TIMESTAMP2':
      return 'timestamp';
    case 'JSON':
      return 'json';
    case 'BIT':
      return 'integer';
    case 'TINY_BLOB':
    case 'MEDIUM_BLOB':
    case 'LONG_BLOB':
    case 'BLOB':
    case 'VAR_STRING':
    case 'STRING':
    case 'VARCHAR':
      return binary ? 'blob' : 'text';
    case undefined:
    default:
      return 'other';
  }
}
