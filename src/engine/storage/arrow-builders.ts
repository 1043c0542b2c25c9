/**
 * Arrow columns built from DuckDB data chunks, one record batch at a time, with the explicit types
 * of arrow-columns.ts. apache-arrow's own builders infer nothing here, and its `vectorFromArray`
 * would turn strings into a dictionary per batch, which a stream cannot concatenate.
 *
 * Each builder reads what its plan's SELECT expression gives and fills the buffers Arrow sends as
 * they are: values, a validity bitmap (least significant bit first), offsets for variable-width
 * columns. Fixed-width values and validity bits are copied from DuckDB's memory whole
 * (duckdb-vector-bytes.ts).
 */
import { DuckDBBlobVector, type DuckDBDataChunk } from '@duckdb/node-api';
import { makeData, type Data, type DataType } from 'apache-arrow';
import { arrowType, type ArrowEncoding } from './arrow-columns';
import { vectorBytes, vectorValidity } from './duckdb-vector-bytes';

export interface ColumnBuilder {
  /** Appends every row of column `column` of the chunk. */
  append(chunk: DuckDBDataChunk, column: number): void;
  /**
   * The column so far as Arrow data; the builder is not used after. `bytes`: the text of a Utf8
   * column (its plan's `bytes` aggregate), which the lengths appended cut into values.
   */
  finish(bytes?: Uint8Array): Data;
}

/** `array`, or a copy at least `needed` long (twice as long, so that growing stays linear). */
function grow<T extends Uint8Array | Int32Array>(array: T, needed: number, fill = 0): T {
  if (needed <= array.length) return array;
  const next = new (array.constructor as new (n: number) => T)(Math.max(needed, array.length * 2));
  if (fill) next.fill(fill);
  next.set(array);
  return next;
}

/** Validity bits, kept only once a chunk has any (no bitmap: every value is valid). */
class Validity {
  private bits: Uint8Array | undefined;

  constructor(private readonly capacity: number) {}

  /** Copies `rows` bits of `source` to bit `at`; null `source`: all valid. */
  append(source: Uint8Array | null, at: number, rows: number): void {
    if (!source) {
      // Bits never written are valid (the bitmap is filled with ones).
      return;
    }
    const start = this.bits ?? new Uint8Array((this.capacity + 7) >> 3).fill(0xff);
    const bits = (this.bits = grow(start, (at + rows + 7) >> 3, 0xff));
    if ((at & 7) === 0) {
      const whole = rows >> 3;
      bits.set(source.subarray(0, whole), at >> 3);
      // The last, partial byte: only its first bits are rows; the rest stay valid for what follows.
      if (rows & 7) bits[(at >> 3) + whole] = source[whole]! | (0xff << (rows & 7));
      return;
    }
    for (let i = 0; i < rows; i++) {
      const to = at + i;
      if (source[i >> 3]! & (1 << (i & 7))) bits[to >> 3]! |= 1 << (to & 7);
      else bits[to >> 3]! &= ~(1 << (to & 7));
    }
  }

  isValid(index: number): boolean {
    return !this.bits || (this.bits[index >> 3]! & (1 << (index & 7))) !== 0;
  }

  /** The bitmap for `length` values, or undefined when no chunk had one (Arrow counts the nulls). */
  bitmap(length: number): Uint8Array | undefined {
    return this.bits && grow(this.bits, (length + 7) >> 3, 0xff).subarray(0, (length + 7) >> 3);
  }
}

/** Values of a fixed byte width, copied from DuckDB whole. */
class FixedWidthBuilder implements ColumnBuilder {
  private bytes: Uint8Array;
  private length = 0;
  private readonly validity: Validity;

  constructor(
    private readonly type: DataType,
    private readonly width: number,
    rows: number,
  ) {
    this.bytes = new Uint8Array(rows * width);
    this.validity = new Validity(rows);
  }

  append(chunk: DuckDBDataChunk, column: number): void {
    const rows = chunk.rowCount;
    this.bytes = grow(this.bytes, (this.length + rows) * this.width);
    this.bytes.set(vectorBytes(chunk, column, rows, this.width), this.length * this.width);
    this.validity.append(vectorValidity(chunk, column, rows), this.length, rows);
    this.length += rows;
  }

  finish(): Data {
    const { ArrayType } = this.type as DataType & {
      ArrayType: new (b: ArrayBuffer, o: number, n: number) => unknown;
    };
    const itemBytes = (ArrayType as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
    return makeData({
      type: this.type,
      length: this.length,
      nullBitmap: this.validity.bitmap(this.length),
      data: new ArrayType(this.bytes.buffer, 0, (this.length * this.width) / itemBytes),
    } as never);
  }
}

/** Booleans: one byte each in DuckDB, one bit each in Arrow. */
class BoolBuilder implements ColumnBuilder {
  private bits: Uint8Array;
  private length = 0;
  private readonly validity: Validity;
  private readonly type = arrowType({ type: 'bool' });

  constructor(rows: number) {
    this.bits = new Uint8Array((rows + 7) >> 3);
    this.validity = new Validity(rows);
  }

  append(chunk: DuckDBDataChunk, column: number): void {
    const rows = chunk.rowCount;
    const values = vectorBytes(chunk, column, rows, 1);
    this.bits = grow(this.bits, ((this.length + rows) >> 3) + 1);
    for (let i = 0; i < rows; i++) {
      const at = this.length + i;
      if (values[i]) this.bits[at >> 3]! |= 1 << (at & 7);
    }
    this.validity.append(vectorValidity(chunk, column, rows), this.length, rows);
    this.length += rows;
  }

  finish(): Data {
    return makeData({
      type: this.type,
      length: this.length,
      nullBitmap: this.validity.bitmap(this.length),
      data: this.bits.subarray(0, (this.length + 7) >> 3),
    } as never);
  }
}

/** Binary: each value's bytes read on its own (blobs are rare in results), end to end. */
class BinaryBuilder implements ColumnBuilder {
  private offsets: Int32Array;
  private bytes = new Uint8Array(16 * 1024);
  private length = 0;
  private readonly validity: Validity;
  private readonly type = arrowType({ type: 'binary' });

  constructor(rows: number) {
    this.offsets = new Int32Array(rows + 1);
    this.validity = new Validity(rows);
  }

  append(chunk: DuckDBDataChunk, column: number): void {
    const vector = chunk.getColumnVector(column);
    if (!(vector instanceof DuckDBBlobVector)) throw new Error(`expected a BLOB vector, got ${vector.type}`);
    const rows = chunk.rowCount;
    this.offsets = grow(this.offsets, this.length + rows + 1);
    for (let i = 0; i < rows; i++) {
      const start = this.offsets[this.length + i]!;
      const value = vector.getItemBytes(i) ?? new Uint8Array(0);
      this.bytes = grow(this.bytes, start + value.length);
      this.bytes.set(value, start);
      this.offsets[this.length + i + 1] = start + value.length;
    }
    this.validity.append(vectorValidity(chunk, column, rows), this.length, rows);
    this.length += rows;
  }

  finish(): Data {
    return makeData({
      type: this.type,
      length: this.length,
      nullBitmap: this.validity.bitmap(this.length),
      valueOffsets: this.offsets.subarray(0, this.length + 1),
      data: this.bytes.subarray(0, this.offsets[this.length]),
    } as never);
  }
}

/** Utf8: offsets from each value's length in bytes; the bytes themselves come whole at the end. */
class Utf8Builder implements ColumnBuilder {
  private offsets: Int32Array;
  private length = 0;
  private readonly validity: Validity;
  private readonly type = arrowType({ type: 'utf8' });

  constructor(rows: number) {
    this.offsets = new Int32Array(rows + 1);
    this.validity = new Validity(rows);
  }

  append(chunk: DuckDBDataChunk, column: number): void {
    const rows = chunk.rowCount;
    const raw = vectorBytes(chunk, column, rows, 4);
    const lengths = new Int32Array(raw.slice().buffer, 0, rows);
    this.validity.append(vectorValidity(chunk, column, rows), this.length, rows);
    this.offsets = grow(this.offsets, this.length + rows + 1);
    for (let i = 0; i < rows; i++) {
      const at = this.length + i;
      // A NULL's slot holds no length worth reading.
      this.offsets[at + 1] = this.offsets[at]! + (this.validity.isValid(at) ? lengths[i]! : 0);
    }
    this.length += rows;
  }

  finish(bytes: Uint8Array = new Uint8Array(0)): Data {
    const end = this.offsets[this.length]!;
    // The lengths and the text come from two reads of the same rows: they must agree to the byte.
    if (bytes.length !== end)
      throw new Error(`a text column's values add up to ${end} bytes, its text has ${bytes.length}`);
    return makeData({
      type: this.type,
      length: this.length,
      nullBitmap: this.validity.bitmap(this.length),
      valueOffsets: this.offsets.subarray(0, this.length + 1),
      data: bytes,
    } as never);
  }
}

/** `rows`: the rows the batch will have, so that its buffers are allocated once, to size. */
export function columnBuilder(encoding: ArrowEncoding, rows: number): ColumnBuilder {
  const type = arrowType(encoding);
  switch (encoding.type) {
    case 'int64':
    case 'float64':
    case 'timestamp':
    case 'time':
      return new FixedWidthBuilder(type, 8, rows);
    case 'date':
      return new FixedWidthBuilder(type, 4, rows);
    case 'decimal':
      // DuckDB's DECIMAL(38, s) is a 128-bit two's complement integer, low half first: Arrow's layout.
      return new FixedWidthBuilder(type, 16, rows);
    case 'bool':
      return new BoolBuilder(rows);
    case 'binary':
      return new BinaryBuilder(rows);
    case 'utf8':
      return new Utf8Builder(rows);
  }
}
