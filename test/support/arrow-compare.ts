/**
 * Reads an Arrow IPC stream back with apache-arrow's own reader and compares it value by value with
 * the Parquet artifact it was made from, read with DuckDB (not through the service's reader). Each
 * Arrow value is taken from its buffers (the raw 64-bit microseconds, days, 128-bit decimal) and
 * each stored text is parsed here on its own terms, so a wrong scale, zone or day shows.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { RecordBatchReader, Type, type Data, type Field } from 'apache-arrow';

export interface ArrowReadBack {
  /** `field: Type` as apache-arrow prints it, e.g. `price: Decimal[38e+2]`. */
  readonly types: Record<string, string>;
  readonly metadata: Map<string, string>;
  readonly fieldMetadata: Record<string, Record<string, string>>;
  readonly rows: number;
  readonly batches: number;
  /** Every value that differs (at most 20), as `row N field: arrow ... stored ...`. */
  readonly mismatches: string[];
}

type Stored = bigint | number | boolean | string | null;

async function parquetColumns(path: string, fields: readonly string[]): Promise<Stored[][]> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const list = fields.map((f) => `"${f.replace(/"/g, '""')}"`).join(', ');
    const reader = await connection.runAndReadAll(
      `SELECT ${list} FROM read_parquet($1, file_row_number = true) ORDER BY file_row_number`,
      [path],
    );
    return reader.getColumnsJS() as Stored[][];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

const MICROS_PER_DAY = 86_400_000_000n;

/** `2024-01-02T03:04:05.123456[Z|+05:30]` (or a space for T) as microseconds since the epoch. */
function timestampMicros(text: string): bigint | undefined {
  const m =
    /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(
      text,
    );
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac = '', zone = 'Z'] = m;
  // Not Date.UTC: it reads years 0 to 99 as 1900 to 1999.
  const at = new Date(0);
  at.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  at.setUTCHours(Number(h), Number(mi), Number(s), 0);
  if (at.getUTCDate() !== Number(d)) return undefined; // 2023-02-29 and the like
  let micros = BigInt(at.getTime()) * 1000n + BigInt(frac.padEnd(6, '0') || '0');
  if (zone !== 'Z') {
    const z = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
    const offset = BigInt((Number(z[2]) * 60 + Number(z[3] ?? 0)) * 60) * 1_000_000n;
    micros += z[1] === '+' ? -offset : offset;
  }
  return micros;
}

function timeMicros(text: string): bigint | undefined {
  const m = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?$/.exec(text);
  if (!m) return undefined;
  const [, h, mi, s, frac = ''] = m;
  return (
    BigInt((Number(h) * 60 + Number(mi)) * 60 + Number(s)) * 1_000_000n + BigInt(frac.padEnd(6, '0') || '0')
  );
}

/** An exact decimal text (`-12.5`, `1e-7`, `12345678901234567890.12`) as an integer scaled by 10^scale. */
function scaledDecimal(text: string, scale: number): bigint | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return undefined;
  const [, sign, int, frac = '', exp = '0'] = m;
  const shift = scale + Number(exp) - frac.length;
  const digits = BigInt(int + frac);
  if (shift < 0) {
    const div = 10n ** BigInt(-shift);
    if (digits % div !== 0n) return undefined; // more digits than the scale holds: not exact
    return (sign ? -1n : 1n) * (digits / div);
  }
  return (sign ? -1n : 1n) * digits * 10n ** BigInt(shift);
}

type Read = (data: Data, i: number) => unknown;

/** Per type the service sends, row `i`'s Arrow value from its buffers. */
const READ: Partial<Record<Type, Read>> = {
  [Type.Decimal]: (data, i) => {
    const words = new BigInt64Array(data.values.buffer, data.values.byteOffset);
    return (words[i * 2 + 1]! << 64n) | BigInt.asUintN(64, words[i * 2]!);
  },
  [Type.Utf8]: (data, i) => Buffer.from(bytesOf(data, i)).toString('utf8'),
  [Type.Binary]: (data, i) => Buffer.from(bytesOf(data, i)).toString('base64'),
  [Type.Bool]: (data, i) => ((data.values as Uint8Array)[i >> 3]! & (1 << (i & 7))) !== 0,
};

function bytesOf(data: Data, i: number): Uint8Array {
  const offsets = data.valueOffsets as Int32Array;
  return (data.values as Uint8Array).subarray(offsets[i], offsets[i + 1]);
}

/** The Arrow value of row `i` in the form the stored value is compared in. */
function arrowValue(data: Data, field: Field, i: number): unknown {
  if (!data.getValid(i)) return null;
  const read = READ[field.typeId];
  // Int64, Float64, Date32 (days), Timestamp and Time64 (microseconds): the raw value.
  return read ? read(data, i) : (data.values as unknown as ArrayLike<number | bigint>)[i];
}

type Same = (
  arrow: unknown,
  stored: Exclude<Stored, null>,
  text: string | undefined,
  field: Field,
) => boolean;

/** Per type the service sends, whether the Arrow value stands for exactly the stored one. */
const SAME: Partial<Record<Type, Same>> = {
  [Type.Int]: (arrow, stored, text) =>
    typeof stored === 'bigint' ? arrow === stored : text !== undefined && arrow === BigInt(text),
  [Type.Float]: (arrow, stored, text) =>
    typeof stored === 'number' ? Object.is(arrow, stored) : Object.is(arrow, Number(text)),
  [Type.Bool]: (arrow, stored, text) =>
    typeof stored === 'boolean' ? arrow === stored : arrow === (text === 'true'),
  [Type.Decimal]: (arrow, _stored, text, field) =>
    text !== undefined && arrow === scaledDecimal(text, (field.type as { scale: number }).scale),
  [Type.Date]: (arrow, _stored, text) => {
    const micros = text === undefined ? undefined : timestampMicros(`${text}T00:00:00`);
    return micros !== undefined && BigInt(arrow as number) * MICROS_PER_DAY === micros;
  },
  [Type.Timestamp]: (arrow, _stored, text) => text !== undefined && arrow === timestampMicros(text),
  [Type.Time]: (arrow, _stored, text) => text !== undefined && arrow === timeMicros(text),
  [Type.Binary]: (arrow, stored, text) => arrow === (text ?? String(stored)),
  [Type.Utf8]: (arrow, stored, text) => arrow === (text ?? String(stored)),
};

function same(field: Field, arrow: unknown, stored: Stored): boolean {
  if (arrow === null || stored === null) return arrow === stored;
  const compare = SAME[field.typeId];
  return (
    compare !== undefined && compare(arrow, stored, typeof stored === 'string' ? stored : undefined, field)
  );
}

const show = (v: unknown) => (typeof v === 'bigint' ? `${v}n` : JSON.stringify(v));

/** `firstRow`: the stream holds the artifact's rows from there on (a page), not all of them. */
export async function arrowAgainstParquet(
  bytes: Uint8Array,
  parquetPath: string,
  firstRow = 0,
): Promise<ArrowReadBack> {
  const reader = RecordBatchReader.from(bytes).open();
  // Read before the batches: a reader that reached the end lets go of its schema.
  const schema = reader.schema;
  // A stream without batches reads as one empty placeholder batch; no batch the service sends is empty.
  const batches = [...reader].filter((b) => b.numRows > 0);
  const fields = schema.fields;
  const stored = fields.length
    ? await parquetColumns(
        parquetPath,
        fields.map((f) => f.name),
      )
    : [];
  const mismatches: string[] = [];
  let row = 0;
  for (const batch of batches) {
    fields.forEach((field, c) => {
      const data = batch.getChildAt(c)!.data[0]!;
      for (let i = 0; i < batch.numRows; i++) {
        const arrow = arrowValue(data, field, i);
        const value = stored[c]?.[firstRow + row + i] ?? null;
        if (!same(field, arrow, value) && mismatches.length < 20)
          mismatches.push(`row ${row + i} ${field.name}: arrow ${show(arrow)} stored ${show(value)}`);
      }
    });
    row += batch.numRows;
  }
  const storedRows = stored[0]?.length ?? 0;
  if (fields.length && firstRow === 0 && row !== storedRows)
    mismatches.push(`the stream has ${row} rows, the artifact ${storedRows}`);
  return {
    types: Object.fromEntries(fields.map((f) => [f.name, String(f.type)])),
    metadata: schema.metadata,
    fieldMetadata: Object.fromEntries(fields.map((f) => [f.name, Object.fromEntries(f.metadata)])),
    rows: row,
    batches: batches.length,
    mismatches,
  };
}
