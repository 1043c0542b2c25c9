/**
 * The kind a result column is stored as, chosen from the values the database returned, not only
 * from the type it declared: a SQLite column declared BOOLEAN may hold 'T' and 'F', one declared
 * INTEGER may hold text, a DuckDB HUGEINT may exceed a BIGINT. Whatever the database returns is
 * stored.
 *
 * A kind fits a value when the value reads back from the stored file as the very same cell
 * (parquet-columns.ts: encodeCell, then decodeCell). The stored kind is the first that fits every
 * value of the column, in this order: the declared kind, integer, float, boolean, text. When none
 * does (numbers mixed with words, say) the column is stored as text, each value as its text
 * (`12`, `true`), and that text is then what the result holds everywhere: in the file, in pages,
 * in the CSV and in the inline sample (`storedCell`), so all of them agree with the manifest.
 *
 * Fit is tracked per column and per candidate as rows arrive, so a writer that streams (the DuckDB
 * staging path) learns of a wider kind at any row and knows it fits every row before it too.
 */
import type { Cell, ResultColumn } from '../datasources/adapter';
import type { TypeKind } from '../datasources/schema';
import { decodeCell, encodeCell } from './parquet-columns';

/** Tried after the declared kind, in order; `text` always fits a column of strings. */
const WIDER: readonly TypeKind[] = ['integer', 'float', 'boolean', 'text'];

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const NON_FINITE = new Set(['NaN', 'Infinity', '-Infinity']);

const DATE = String.raw`[+-]?\d{4,}-\d{2}-\d{2}`;
const TIME = String.raw`\d{1,3}:\d{2}(?::\d{2}(?:\.\d+)?)?`;
const ZONE = String.raw`(?:Z|[+-]\d{2}(?::?\d{2}(?::?\d{2})?)?)`;
/** PostgreSQL writes ` BC` after an ancient date, DuckDB ` (BC)`. */
const ERA = String.raw`(?: BC| \(BC\))?`;
const IS_DATE = new RegExp(String.raw`^(?:${DATE}${ERA}|-?infinity)$`, 'i');
const IS_TIMESTAMP = new RegExp(String.raw`^(?:${DATE}(?:[T ]${TIME}${ZONE}?)?${ERA}|-?infinity)$`, 'i');
const IS_TIME = new RegExp(String.raw`^-?${TIME}${ZONE}?$`);
const IS_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const IS_DECIMAL = /^[+-]?\d+(?:\.\d+)?$/;
const IS_BIG_INTEGER = /^-?[1-9]\d*$/;

/** Whether `cell` (not null) reads back unchanged from a column stored as `kind`. */
export function fits(kind: TypeKind, cell: Exclude<Cell, null>): boolean {
  switch (kind) {
    case 'integer':
      // a whole number, or the exact text of one past 2^53 (how adapters give them) within BIGINT
      if (typeof cell === 'number') return Number.isSafeInteger(cell);
      return typeof cell === 'string' && isBigIntegerText(cell);
    case 'float':
      return typeof cell === 'number'
        ? Number.isFinite(cell)
        : typeof cell === 'string' && NON_FINITE.has(cell);
    case 'boolean':
      return typeof cell === 'boolean';
    case 'decimal':
      // a number, or the text of a decimal no double holds exactly (a double's own text reads back as the number)
      if (typeof cell === 'number') return Number.isFinite(cell);
      if (typeof cell !== 'string') return false;
      if (NON_FINITE.has(cell)) return true;
      // any decimal text: a short one ('-0.05', '100') reads back as the same number, a long one as its text
      return IS_DECIMAL.test(cell);
    case 'date':
      return typeof cell === 'string' && IS_DATE.test(cell);
    case 'timestamp':
      return typeof cell === 'string' && IS_TIMESTAMP.test(cell);
    case 'time':
      return typeof cell === 'string' && IS_TIME.test(cell);
    case 'blob':
      return typeof cell === 'string' && cell.length % 4 === 0 && IS_BASE64.test(cell);
    case 'json':
      return typeof cell === 'string' && isJson(cell);
    case 'text':
    case 'other':
      return typeof cell === 'string';
  }
}

function isBigIntegerText(text: string): boolean {
  if (!IS_BIG_INTEGER.test(text) || text.length > 20) return false;
  const n = BigInt(text);
  const outsideDouble = n > BigInt(Number.MAX_SAFE_INTEGER) || n < BigInt(Number.MIN_SAFE_INTEGER);
  return outsideDouble && n >= INT64_MIN && n <= INT64_MAX;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The cell as it reads back from a column stored as `kind`: the form a result's sample must show. */
export function storedCell(kind: TypeKind, cell: Cell): Cell {
  if (cell === null) return null;
  return decodeCell(kind, encodeCell({ name: '', field: '', kind }, cell));
}

/** Follows the values of a result's columns and tells the kind each must be stored as. */
export class ColumnKinds {
  /** Per column: the declared kind first, then the wider ones. */
  private readonly candidates: TypeKind[][];
  /** Per column and candidate: every value seen so far fits it. */
  private readonly fitting: boolean[][];

  constructor(columns: readonly ResultColumn[]) {
    this.candidates = columns.map((c) => [c.kind, ...WIDER.filter((k) => k !== c.kind)]);
    this.fitting = this.candidates.map((list) => list.map(() => true));
  }

  /** Takes in more rows of the result. */
  observe(rows: readonly (readonly Cell[])[]): void {
    this.candidates.forEach((kinds, c) => {
      const fitting = this.fitting[c]!;
      for (let k = 0; k < kinds.length; k++) {
        if (!fitting[k]) continue;
        const kind = kinds[k]!;
        for (const row of rows) {
          const cell = row[c];
          if (cell !== null && cell !== undefined && !fits(kind, cell)) {
            fitting[k] = false;
            break;
          }
        }
      }
    });
  }

  /** The kind each column is stored as, given every row observed so far. */
  kinds(): TypeKind[] {
    return this.candidates.map((kinds, c) => kinds[this.fitting[c]!.indexOf(true)] ?? 'text');
  }

  /** The columns with the kinds they are stored as. */
  columns(columns: readonly ResultColumn[]): ResultColumn[] {
    const kinds = this.kinds();
    return columns.map((col, i) => (col.kind === kinds[i] ? col : { ...col, kind: kinds[i] ?? 'text' }));
  }
}
