/**
 * Conversion of driver values to JSON-safe cells, the same for every datasource:
 * - integers beyond +-2^53 become decimal strings (a double would silently round them);
 * - decimals become numbers when the double prints back to the same decimal, else strings;
 * - dates stay `YYYY-MM-DD`, timestamps become ISO 8601 (`T` separator; `Z` only when the database
 *   gave an instant, e.g. timestamptz), times stay `HH:MM:SS[.fff]`;
 * - binary values become base64 strings (compact, and what JSON APIs usually expect);
 * - NaN and infinities become the strings `NaN`, `Infinity`, `-Infinity`;
 * - structured values (json, arrays, structs) become their JSON text.
 */
import type { Cell } from './adapter';

export function integerCell(value: bigint | number | string): Cell {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : numberCell(value);
  const big = typeof value === 'bigint' ? value : BigInt(value);
  if (big <= BigInt(Number.MAX_SAFE_INTEGER) && big >= BigInt(Number.MIN_SAFE_INTEGER)) return Number(big);
  return big.toString();
}

export function numberCell(value: number): Cell {
  return Number.isFinite(value) ? value : String(value);
}

/** `123.4500` -> 123.45; `12345678901234567890.1` -> the same string (no double holds it). */
export function decimalCell(text: string): Cell {
  const trimmed = text.trim();
  if (!/^[+-]?\d+(\.\d+)?$/.test(trimmed)) return trimmed; // NaN, Infinity, exponent forms
  const canonical = canonicalDecimal(trimmed);
  const asNumber = Number(canonical);
  return Number.isFinite(asNumber) && canonicalDecimal(plainNumber(asNumber)) === canonical
    ? asNumber
    : canonical;
}

function canonicalDecimal(s: string): string {
  let sign = '';
  let body = s;
  if (body.startsWith('+') || body.startsWith('-')) {
    sign = body.startsWith('-') ? '-' : '';
    body = body.slice(1);
  }
  let [int = '0', frac = ''] = body.split('.');
  int = int.replace(/^0+(?=\d)/, '');
  frac = frac.replace(/0+$/, '');
  const out = frac ? `${int}.${frac}` : int;
  return out === '0' ? '0' : sign + out;
}

/** A double printed without exponent notation (so it compares with a decimal string). */
function plainNumber(n: number): string {
  const s = String(n);
  if (!/e/i.test(s)) return s;
  // Exponent forms only occur for |n| >= 1e21 or < 1e-6; toFixed/toLocaleString keeps all digits.
  return n.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}

export function blobCell(bytes: Uint8Array): Cell {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** `2024-01-02 03:04:05.123` -> `2024-01-02T03:04:05.123` (a zone suffix is kept as written). */
export function timestampTextCell(text: string): Cell {
  return text.replace(' ', 'T');
}

export function dateObjectCell(value: Date): Cell {
  return Number.isNaN(value.getTime()) ? null : value.toISOString();
}

/**
 * The cell of a JavaScript scalar (null, string, boolean, number, bigint), or `undefined` when the
 * value is an object the caller converts by its own rules. Shared by every driver's converter.
 */
export function scalarCell(value: unknown): Cell | undefined {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return numberCell(value);
    case 'bigint':
      return integerCell(value);
    case 'object':
      return undefined;
    case 'function':
    case 'symbol':
    case 'undefined':
      return null;
  }
}

/** A value of a type the adapter does not convert specifically: keep scalars, serialise the rest. */
export function genericCell(value: unknown): Cell {
  const scalar = scalarCell(value);
  if (scalar !== undefined) return scalar;
  if (value instanceof Date) return dateObjectCell(value);
  if (value instanceof Uint8Array) return blobCell(value);
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? integerCell(v) : v));
}
