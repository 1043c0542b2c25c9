import { RecordBatchReader } from 'apache-arrow';
import { join } from 'node:path';
import type { ResultBatch } from '../../../src/engine/datasources/adapter';
import { LocalResultStore } from '../../../src/engine/storage';
import { arrowAgainstParquet } from '../../support/arrow-compare';
import { openFilesUnder } from '../../support/open-files';
import { numberedRows, tempRoot } from '../../support/storage-helpers';

async function bytesOf(stream: NodeJS.ReadableStream): Promise<{ bytes: Buffer; chunks: number }> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return { bytes: Buffer.concat(parts), chunks: parts.length };
}

describe('LocalResultStore.streamArrow', () => {
  const root = tempRoot('results-arrow');
  const results = join(root.path, 'results');
  const store = new LocalResultStore(results);
  const artifact = (resultId: string) => join(results, 't', 'run', `${resultId}.parquet`);
  afterAll(async () => {
    await store.close();
    root.remove();
  });

  it('types every kind the result recorded, and every value equals the Parquet artifact', async () => {
    const batch: ResultBatch = {
      columns: [
        { name: 'id', kind: 'integer' },
        { name: 'big', kind: 'integer' },
        { name: 'price', kind: 'decimal' },
        { name: 'amount', kind: 'decimal' },
        { name: 'ratio', kind: 'float' },
        { name: 'ok', kind: 'boolean' },
        { name: 'day', kind: 'date' },
        { name: 'at', kind: 'timestamp' },
        { name: 'at_utc', kind: 'timestamp' },
        { name: 'clock', kind: 'time' },
        { name: 'label', kind: 'text' },
        { name: 'raw', kind: 'blob' },
        { name: 'doc', kind: 'json' },
        { name: 'id', kind: 'integer' },
      ],
      rows: [
        [
          1,
          '9007199254740993',
          12.5,
          12.5,
          0.25,
          true,
          '2024-02-29',
          '2024-01-02T03:04:05.123456',
          '2024-01-02T03:04:05Z',
          '10:11:12.5',
          'naïve 🚀',
          'aGVsbG8=',
          '{"a":1}',
          7,
        ],
        [
          2,
          '-9223372036854775808',
          '12345678901234567890.12',
          '-0.05',
          -0,
          false,
          '1969-12-31',
          '1900-01-01T00:00:00',
          '1999-12-31T23:59:59+05:30',
          '23:59:59.999999',
          '',
          '',
          '[]',
          8,
        ],
        [
          3,
          '9223372036854775807',
          1e-7,
          '100',
          1e300,
          null,
          '0001-01-01',
          '9999-12-31T23:59:59.999999',
          '2024-06-30T12:00:00.5-02:00',
          '00:00:00',
          'a,"b"\n',
          'AA==',
          'null',
          9,
        ],
        [null, null, null, null, null, null, null, null, null, null, null, null, null, null],
      ],
    };
    await store.writeResult('t', 'run', 'typed', [batch]);
    const { bytes } = await bytesOf(await store.streamArrow('t', 'run', 'typed'));
    const back = await arrowAgainstParquet(bytes, artifact('typed'));
    expect(back.mismatches).toEqual([]);
    expect(back.rows).toBe(4);
    expect(back.types).toEqual({
      id: 'Int64',
      big: 'Int64',
      price: 'Decimal[38e+7]',
      // 18 digits or fewer: parsed through DuckDB's 64-bit decimal, still sent as Decimal128.
      amount: 'Decimal[38e+2]',
      ratio: 'Float64',
      ok: 'Bool',
      day: 'Date32<DAY>',
      at: 'Timestamp<MICROSECOND>',
      at_utc: 'Timestamp<MICROSECOND, UTC>',
      clock: 'Time64<MICROSECOND>',
      label: 'Utf8',
      raw: 'Binary',
      doc: 'Utf8',
      id_2: 'Int64',
    });
    // A repeated name keeps its unique field name; the query's name and the kind are in the metadata.
    expect(back.fieldMetadata.id_2).toEqual({ 'nl2sql.kind': 'integer', 'nl2sql.name': 'id' });
    expect(Object.fromEntries(back.metadata)).toEqual({
      'nl2sql.request_id': 'run',
      'nl2sql.result_id': 'typed',
      'nl2sql.total_rows': '4',
      'nl2sql.truncated': 'false',
      'nl2sql.first_row': '0',
    });
  });

  it('keeps a column as text when one of its values would not come back exactly', async () => {
    await store.writeResult('t', 'run', 'loose', [
      {
        columns: [
          { name: 'day', kind: 'date' },
          { name: 'at', kind: 'timestamp' },
          { name: 'amount', kind: 'decimal' },
          { name: 'wide', kind: 'decimal' },
          { name: 'clock', kind: 'time' },
          { name: 'nanos', kind: 'timestamp' },
          { name: 'good_day', kind: 'date' },
        ],
        rows: [
          // SQLite keeps whatever a DATE column was given; PostgreSQL has BC dates and NaN.
          [
            'yesterday',
            '2024-01-02T03:04:05',
            'NaN',
            '1' + '0'.repeat(39),
            '25:00:00',
            '2024-01-02T03:04:05.123456789',
            '2024-01-02',
          ],
          ['2024-02-30', '2024-01-02T03:04:05Z', '1.5', '1', '10:00:00', '2024-01-02T03:04:05', '2024-01-03'],
          ['2024-01-01 BC', null, null, null, null, null, null],
        ],
      },
    ]);
    const { bytes } = await bytesOf(await store.streamArrow('t', 'run', 'loose'));
    const back = await arrowAgainstParquet(bytes, artifact('loose'));
    expect(back.mismatches).toEqual([]);
    expect(back.types).toEqual({
      day: 'Utf8',
      at: 'Utf8', // plain and zoned values mixed: no one timestamp type holds both
      amount: 'Utf8',
      wide: 'Utf8', // 40 digits: beyond Decimal128
      clock: 'Utf8', // a duration (MySQL TIME), not a time of day
      nanos: 'Utf8', // nanoseconds would be cut to microseconds
      good_day: 'Date32<DAY>',
    });
    // the writer stored the column as text (stored-kinds.ts), and the stream says so
    expect(back.fieldMetadata.day!['nl2sql.kind']).toBe('text');
  });

  it('streams a large result in several record batches, every row in order', async () => {
    const total = 300_000;
    await store.writeResult('t', 'run', 'big', numberedRows(total, 10_000));
    const { bytes, chunks } = await bytesOf(await store.streamArrow('t', 'run', 'big'));
    const back = await arrowAgainstParquet(bytes, artifact('big'));
    expect(back.mismatches).toEqual([]);
    expect(back.rows).toBe(total);
    // The schema, then several batches: the stream was never built in one piece.
    expect(back.batches).toBeGreaterThanOrEqual(3);
    expect(chunks).toBeGreaterThanOrEqual(3);
    const reader = RecordBatchReader.from(bytes);
    const sizes = [...reader].map((b) => b.numRows);
    expect(sizes[0]).toBe(8192);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(total);
  });

  it('sends one page of rows when asked, with the page rules of the JSON route', async () => {
    await store.writeResult('t', 'run', 'paged', numberedRows(5000, 1000));
    const { bytes } = await bytesOf(
      await store.streamArrow('t', 'run', 'paged', { offset: 4990, limit: 50 }),
    );
    const back = await arrowAgainstParquet(bytes, artifact('paged'), 4990);
    expect(back.mismatches).toEqual([]);
    expect(back.rows).toBe(10);
    expect(back.metadata.get('nl2sql.first_row')).toBe('4990');
    const past = await arrowAgainstParquet(
      (await bytesOf(await store.streamArrow('t', 'run', 'paged', { offset: 9000 }))).bytes,
      artifact('paged'),
      9000,
    );
    expect(past.rows).toBe(0);
    expect(past.types).toEqual({ n: 'Int64', label: 'Utf8' });
    await expect(store.streamArrow('t', 'run', 'paged', { limit: 0 })).rejects.toMatchObject({
      code: 'INVALID_PAGE_REQUEST',
    });
  });

  it('sends the schema alone for a result without rows, and nothing but the end for one without columns', async () => {
    await store.writeResult('t', 'run', 'empty', [], {
      columns: [
        { name: 'n', kind: 'integer' },
        { name: 'day', kind: 'date' },
      ],
    });
    const empty = await arrowAgainstParquet(
      (await bytesOf(await store.streamArrow('t', 'run', 'empty'))).bytes,
      artifact('empty'),
    );
    expect(empty).toMatchObject({ rows: 0, batches: 0, mismatches: [] });
    // An all-null (here: no) value list types as the kind says.
    expect(empty.types).toEqual({ n: 'Int64', day: 'Date32<DAY>' });
    await store.writeResult('t', 'run', 'none', [], { columns: [] });
    const none = await arrowAgainstParquet(
      (await bytesOf(await store.streamArrow('t', 'run', 'none'))).bytes,
      artifact('none'),
    );
    expect(none).toMatchObject({ rows: 0, batches: 0, types: {}, mismatches: [] });
  });

  it('answers the one not-found error for a missing result or another tenant', async () => {
    await expect(store.streamArrow('t', 'run', 'missing')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(store.streamArrow('other', 'run', 'typed')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(store.streamArrow('t', '../run', 'typed')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('lets go of the file and its connections when the consumer stops after the first batch', async () => {
    await store.writeResult('t', 'run', 'left', numberedRows(400_000, 20_000));
    const stream = await store.streamArrow('t', 'run', 'left');
    let chunks = 0;
    for await (const chunk of stream) {
      expect((chunk as Buffer).length).toBeGreaterThan(0);
      // The schema, then the first batch: by then the next batches are being read ahead.
      if (++chunks === 2) break;
    }
    await new Promise((resolve) => (stream.closed ? resolve(null) : stream.once('close', resolve)));
    expect(openFilesUnder(results)).toEqual([]);
    // The store keeps serving after an abandoned export.
    const page = await store.readPage('t', 'run', 'left', { offset: 399_999, limit: 1 });
    expect(page.rows).toEqual([[399_999, 'row 399999']]);
  });

  it('waits for the reads a batch being built starts before closing their connections', async () => {
    // Destroyed just after the schema went out, the stream is reading its first batch; once that
    // arrives it starts the next reads. Closing their connections under them crashed the process or
    // left the file open.
    await store.writeResult('t', 'run', 'racy', numberedRows(400_000, 20_000));
    for (let i = 0; i < 5; i++) {
      const stream = await store.streamArrow('t', 'run', 'racy');
      await new Promise<void>((resolve) => {
        stream.once('data', () => {
          // Once the stream has asked for its next bytes (which it does as the schema goes out).
          setImmediate(() => stream.destroy());
          stream.once('close', () => resolve());
        });
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(openFilesUnder(results)).toEqual([]);
    }
    const page = await store.readPage('t', 'run', 'racy', { offset: 0, limit: 1 });
    expect(page.rows).toEqual([[0, 'row 0']]);
  });
});
