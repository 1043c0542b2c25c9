/**
 * How each column of a saved result becomes a typed Arrow column.
 *
 * The Parquet artifact stores integer, float and boolean columns natively and every other kind as
 * the text the datasource gave (parquet-columns.ts), with the kind in the result's manifest entry.
 * The Arrow stream types those texts again from that kind: a decimal becomes Decimal128, a date
 * Date32 (days), a timestamp Timestamp(microsecond) (with zone UTC when every value carries an offset
 * or `Z`), a time Time64(microsecond), a blob (base64) Binary. A column is typed only when every
 * stored value reads back exactly, which one aggregate query over the file checks before the first
 * byte is sent; otherwise it stays Utf8, so no value is changed or lost on the way (its field
 * metadata still names the kind). The file's own column types come first: a native column keeps
 * its type whatever the manifest's kind says, so a column the writer widened to text stays text
 * unless its values type exactly.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  Binary,
  Bool,
  DateDay,
  Decimal,
  Field,
  Float64,
  Int64,
  Schema,
  TimeMicrosecond,
  TimestampMicrosecond,
  Utf8,
  type DataType,
} from 'apache-arrow';
import { quoteIdent, quoteLiteral } from './parquet-columns';
import type { ManifestColumn } from './result-store';

/** What a column is sent as; the builder of each is in arrow-builders.ts. */
export type ArrowEncoding =
  | { readonly type: 'int64' }
  | { readonly type: 'float64' }
  | { readonly type: 'bool' }
  | {
      readonly type: 'decimal';
      readonly precision: number;
      readonly scale: number;
      /** Digits the widest value needs (integer part and scale). */
      readonly digits: number;
    }
  | { readonly type: 'date' }
  | { readonly type: 'timestamp'; readonly utc: boolean }
  | { readonly type: 'time' }
  | { readonly type: 'binary' }
  | { readonly type: 'utf8' };

export interface ArrowColumnPlan {
  readonly column: ManifestColumn;
  readonly encoding: ArrowEncoding;
  /** The SELECT expression whose DuckDB values the column's builder reads, row by row. */
  readonly select: string;
  /**
   * Utf8 only: the aggregate giving a batch's text as one blob, every value's bytes end to end in
   * file order (`select` then gives each value's length in bytes). Reading each string out of DuckDB
   * on its own cost a native call and an allocation per value, most of an export's time.
   */
  readonly bytes?: string;
}

/** Decimal128's widest precision. */
export const MAX_DECIMAL_PRECISION = 38;
/** DuckDB's widest decimal held in 64 bits. */
const NARROW_DECIMAL_DIGITS = 18;

/** Field metadata keys: the kind of the result column and its name as the query returned it. */
export const FIELD_KIND_KEY = 'nl2sql.kind';
export const FIELD_NAME_KEY = 'nl2sql.name';

export function arrowType(encoding: ArrowEncoding): DataType {
  switch (encoding.type) {
    case 'int64':
      return new Int64();
    case 'float64':
      return new Float64();
    case 'bool':
      return new Bool();
    case 'decimal':
      return new Decimal(encoding.scale, encoding.precision, 128);
    case 'date':
      return new DateDay();
    case 'timestamp':
      return new TimestampMicrosecond(encoding.utc ? 'UTC' : null);
    case 'time':
      return new TimeMicrosecond();
    case 'binary':
      return new Binary();
    case 'utf8':
      return new Utf8();
  }
}

/**
 * The stream's schema. Fields take the artifact's field names (unique, as a data frame needs);
 * the name the query gave, which may repeat, is in each field's metadata.
 */
export function arrowSchema(plans: readonly ArrowColumnPlan[], metadata: Map<string, string>): Schema {
  return new Schema(
    plans.map(
      (p) =>
        new Field(
          p.column.field,
          arrowType(p.encoding),
          true,
          new Map([
            [FIELD_KIND_KEY, p.column.kind],
            [FIELD_NAME_KEY, p.column.name],
          ]),
        ),
    ),
    metadata,
  );
}

/** The expression that gives the builder what it reads: plain numbers where a cast can give them. */
function selectFor(source: string, encoding: ArrowEncoding, fromText: boolean): string {
  switch (encoding.type) {
    case 'int64':
      return `CAST(${source} AS BIGINT)`;
    case 'float64':
      return `CAST(${source} AS DOUBLE)`;
    case 'bool':
      return `CAST(${source} AS BOOLEAN)`;
    case 'decimal': {
      // Always 128 bits wide in DuckDB, so the builder reads one layout. Text parses into a
      // 64-bit DECIMAL(18, s) first where it fits: parsed straight into DECIMAL(38, s) it took
      // 6 microseconds a value, 170 times longer (2 million values: 12.5 s against 75 ms).
      const wide = `DECIMAL(${MAX_DECIMAL_PRECISION}, ${encoding.scale})`;
      return fromText && encoding.digits <= NARROW_DECIMAL_DIGITS
        ? `CAST(CAST(${source} AS DECIMAL(${NARROW_DECIMAL_DIGITS}, ${encoding.scale})) AS ${wide})`
        : `CAST(${source} AS ${wide})`;
    }
    case 'date':
      return `CAST(CAST(${source} AS DATE) - DATE '1970-01-01' AS INTEGER)`;
    case 'timestamp':
      return `epoch_us(CAST(${source} AS ${encoding.utc ? 'TIMESTAMPTZ' : 'TIMESTAMP'}))`;
    case 'time':
      return `epoch_us(CAST(${source} AS TIME))`;
    case 'binary':
      return fromText ? `from_base64(${source})` : `CAST(${source} AS BLOB)`;
    case 'utf8':
      return `CAST(strlen(${text(source)}) AS INTEGER)`;
  }
}

function text(source: string): string {
  return `CAST(${source} AS VARCHAR)`;
}

/** NULL values add no bytes; a batch of only NULLs or empty strings gives NULL, read as no bytes. */
function bytesFor(source: string): string {
  return `encode(string_agg(${text(source)}, '' ORDER BY file_row_number))`;
}

/** A column the file stores in a DuckDB type of its own (not text): sent as that type. */
function nativeEncoding(duckdbType: string): ArrowEncoding | undefined {
  const t = duckdbType.toUpperCase();
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|UTINYINT|USMALLINT|UINTEGER)$/.test(t)) return { type: 'int64' };
  if (t === 'DOUBLE' || t === 'FLOAT') return { type: 'float64' };
  if (t === 'BOOLEAN') return { type: 'bool' };
  if (t === 'DATE') return { type: 'date' };
  if (t === 'TIMESTAMP') return { type: 'timestamp', utc: false };
  if (t === 'TIMESTAMP WITH TIME ZONE') return { type: 'timestamp', utc: true };
  if (t === 'TIME') return { type: 'time' };
  if (t === 'BLOB') return { type: 'binary' };
  const decimal = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(t);
  if (decimal) {
    const precision = Number(decimal[1]);
    return { type: 'decimal', precision, scale: Number(decimal[2]), digits: precision };
  }
  return undefined;
}

// Stored texts that type exactly. The patterns accept only the forms the datasource adapters write
// (cells.ts): DuckDB's casts alone are looser (they take `+5`, ` 1`, a date's `24:00:00`, an offset
// on a plain timestamp, which they drop), and a value they accept that the pattern refuses would
// come back different.
const INTEGER_TEXT = '-?(0|[1-9][0-9]*)';
const FLOAT_TEXT = '-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?|NaN|-?Infinity';
/** A two-digit exponent at most: a wider one cannot fit Decimal128 anyway. */
const DECIMAL_TEXT = '-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]{1,2})?';
const DECIMAL_PARTS = '^-?0*([0-9]*)(?:\\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$';
const DATE_TEXT = '[0-9]{4}-[0-9]{2}-[0-9]{2}';
const TIME_TEXT = '([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,6})?';
const TIMESTAMP_TEXT = `${DATE_TEXT}[T ]${TIME_TEXT}`;
const ZONE_TEXT = '(Z|[+-][0-9]{2}(:?[0-9]{2})?)';
const BASE64_TEXT = '([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?';

function matches(c: string, pattern: string): string {
  return `regexp_full_match(${c}, ${quoteLiteral(pattern)})`;
}

/** True when `check` holds for every non-null `value`; an all-null column passes. */
function allValues(value: string, check: string): string {
  return `coalesce(bool_and(${check}) FILTER (WHERE ${value} IS NOT NULL), true)`;
}

/**
 * How a text column of this kind is checked: per-row expressions of the value `c` (each computed
 * once, in an inner SELECT), aggregates over their aliases `r`, and how the aggregates' values
 * decide the column's encoding. Kinds with nothing to check (text, json, other) are Utf8.
 */
interface TextCheck {
  readonly rows: (c: string) => string[];
  readonly aggregates: (c: string, r: readonly string[]) => string[];
  readonly decide: (values: readonly unknown[]) => ArrowEncoding;
}

const UTF8: ArrowEncoding = { type: 'utf8' };

function exactly(pattern: string, encoding: ArrowEncoding, cast?: string): TextCheck {
  return {
    rows: (c) => [
      cast ? `${matches(c, pattern)} AND TRY_CAST(${c} AS ${cast}) IS NOT NULL` : matches(c, pattern),
    ],
    aggregates: (c, [valid]) => [allValues(c, valid!)],
    decide: ([all]) => (all === true ? encoding : UTF8),
  };
}

const TEXT_CHECKS: Partial<Record<ManifestColumn['kind'], TextCheck>> = {
  integer: exactly(INTEGER_TEXT, { type: 'int64' }, 'BIGINT'),
  float: exactly(FLOAT_TEXT, { type: 'float64' }, 'DOUBLE'),
  boolean: exactly('true|false', { type: 'bool' }),
  date: exactly(DATE_TEXT, { type: 'date' }, 'DATE'),
  time: exactly(TIME_TEXT, { type: 'time' }, 'TIME'),
  blob: exactly(BASE64_TEXT, { type: 'binary' }),
  timestamp: {
    rows: (c) => {
      // 'p' for a plain timestamp, 'z' for one with a zone (`Z` or an offset), NULL for neither;
      // a plain column pays for one pattern per value.
      const form =
        `CASE WHEN ${matches(c, TIMESTAMP_TEXT)} THEN 'p' ` +
        `WHEN ${matches(c, TIMESTAMP_TEXT + ZONE_TEXT)} THEN 'z' END`;
      return [form];
    },
    aggregates: (c, [form]) => [
      allValues(
        c,
        `${form} IS NOT NULL AND (CASE WHEN ${form} = 'z' THEN TRY_CAST(${c} AS TIMESTAMPTZ) ` +
          `ELSE TRY_CAST(${c} AS TIMESTAMP) END) IS NOT NULL`,
      ),
      `count(*) FILTER (WHERE ${form} = 'z')`,
      `count(${c})`,
    ],
    // A column mixing plain and zoned values has no one Arrow type: it stays text.
    decide: ([all, zoned, values]) =>
      all !== true
        ? UTF8
        : Number(zoned) === 0
          ? { type: 'timestamp', utc: false }
          : Number(zoned) === Number(values)
            ? { type: 'timestamp', utc: true }
            : UTF8,
  },
  decimal: {
    rows: (c) => {
      // Plain forms (`-12.34`) are measured by where the point is (string functions that build
      // new strings cost twice as much); a trailing zero counts as scale, which only widens it.
      // The rare exponent form (`1e-7`, how a double prints below 1e-6) goes through a pattern
      // that also gives the exponent.
      const exponent = `(contains(${c}, 'e') OR contains(${c}, 'E'))`;
      const m = `regexp_extract(${c}, ${quoteLiteral(DECIMAL_PARTS)}, ['i', 'f', 'e'])`;
      const exp = `coalesce(TRY_CAST(${m}.e AS INTEGER), 0)`;
      const point = `strpos(${c}, '.')`;
      return [
        matches(c, DECIMAL_TEXT),
        // The scale the fraction needs, and the digits of the integer part.
        `CASE WHEN ${exponent} THEN greatest(0, length(rtrim(${m}.f, '0')) - ${exp}) ` +
          `WHEN ${point} > 0 THEN strlen(${c}) - ${point} ELSE 0 END`,
        `CASE WHEN ${exponent} THEN greatest(0, length(${m}.i) + ${exp}) ` +
          `ELSE (CASE WHEN ${point} > 0 THEN ${point} - 1 ELSE strlen(${c}) END) - ` +
          `(CASE WHEN starts_with(${c}, '-') THEN 1 ELSE 0 END) END`,
      ];
    },
    aggregates: (c, [valid, scale, digits]) => [
      allValues(c, valid!),
      `max(${scale}) FILTER (WHERE ${valid})`,
      `max(${digits}) FILTER (WHERE ${valid})`,
    ],
    decide: ([all, scale, digits]) => {
      const s = Number(scale ?? 0);
      const d = Number(digits ?? 0);
      return all === true && s + d <= MAX_DECIMAL_PRECISION
        ? { type: 'decimal', precision: MAX_DECIMAL_PRECISION, scale: s, digits: s + d }
        : UTF8;
    },
  },
};

/** `read_parquet` of one file, the path bound or quoted. */
export function parquetSource(path: string): string {
  return `read_parquet(${quoteLiteral(path)}, file_row_number = true)`;
}

/**
 * The plan of every column: the file's types first (DESCRIBE), then, for text columns of a typed
 * kind, one aggregate query over the whole file deciding whether their values type exactly.
 */
export async function planArrowColumns(
  connection: DuckDBConnection,
  path: string,
  columns: readonly ManifestColumn[],
): Promise<ArrowColumnPlan[]> {
  if (!columns.length) return [];
  const fields = columns.map((c) => quoteIdent(c.field));
  const described = await connection.runAndReadAll(
    `DESCRIBE SELECT ${fields.join(', ')} FROM ${parquetSource(path)}`,
  );
  const types = described.getRowObjectsJS().map((row) => row.column_type as string);
  const checks: { index: number; check: TextCheck; first: number; count: number }[] = [];
  const perRow: string[] = [];
  const aggregates: string[] = [];
  columns.forEach((column, index) => {
    const check = types[index] === 'VARCHAR' ? TEXT_CHECKS[column.kind] : undefined;
    if (!check) return;
    const value = `v${index}`;
    const aliases = check.rows(fields[index]!).map((expr, k) => {
      perRow.push(`${expr} AS ${value}_${k}`);
      return `${value}_${k}`;
    });
    perRow.push(`${fields[index]!} AS ${value}`);
    const exprs = check.aggregates(value, aliases);
    checks.push({ index, check, first: aggregates.length, count: exprs.length });
    aggregates.push(...exprs);
  });
  const decided = new Map<number, ArrowEncoding>();
  if (aggregates.length) {
    // Each row's checks are computed once, in the inner SELECT, however many aggregates use them.
    const reader = await connection.runAndReadAll(
      `SELECT ${aggregates.join(', ')} FROM (SELECT ${perRow.join(', ')} FROM ${parquetSource(path)})`,
    );
    const row = reader.getRowsJS()[0] ?? [];
    for (const { index, check, first, count } of checks)
      decided.set(index, check.decide(row.slice(first, first + count)));
  }
  return columns.map((column, index) => {
    const type = types[index] ?? 'VARCHAR';
    const fromText = type === 'VARCHAR';
    const encoding = decided.get(index) ?? (fromText ? UTF8 : (nativeEncoding(type) ?? UTF8));
    const select = selectFor(fields[index]!, encoding, fromText);
    return encoding.type === 'utf8'
      ? { column, encoding, select, bytes: bytesFor(fields[index]!) }
      : { column, encoding, select };
  });
}
