import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResultBatch } from '../../../src/engine/datasources/adapter';
import { LocalResultStore, StorageWriteError } from '../../../src/engine/storage';
import { numberedRows, storedEntry, tempRoot } from '../../support/storage-helpers';

describe('LocalResultStore.writeResult', () => {
  const root = tempRoot('results-write');
  const store = new LocalResultStore(root.path);
  afterAll(async () => {
    await store.close();
    root.remove();
  });

  it('writes a parquet file at <root>/<tenant>/<request_id>/<result_id>.parquet that DuckDB reads back', async () => {
    const { ref } = await store.writeResult('acme', 'req-1', 'node_a', numberedRows(2500, 700));
    const expected = join(root.path, 'acme', 'req-1', 'node_a.parquet');
    expect(ref).toEqual({
      uri: expect.stringMatching(/^file:\/\//),
      format: 'parquet',
      row_count: 2500,
      columns: ['n', 'label'],
    });
    expect(fileURLToPath(ref.uri)).toBe(expected);

    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    const reader = await conn.runAndReadAll(
      `SELECT count(*), min(n), max(n), any_value(label) FILTER (WHERE n = 1234) FROM read_parquet('${expected}')`,
    );
    expect(reader.getRowsJson()[0]).toEqual(['2500', '0', '2499', 'row 1234']);
    conn.closeSync();
    db.closeSync();
  });

  it("records each result in the run manifest, its entry kept in the file's own footer", async () => {
    const batches: ResultBatch[] = [
      { columns: [{ name: 'x', kind: 'float' }], rows: [[1.5], [2.5]] },
      { columns: [{ name: 'x', kind: 'float' }], rows: [[3.5]], truncated: true },
    ];
    await store.writeResult('acme', 'req-2', 'first', batches);
    // Past one data chunk of rows: written through the DuckDB staging path.
    await store.writeResult('acme', 'req-2', 'second', numberedRows(3000, 1000), { truncated: true });
    await store.writeResult('acme', 'req-2', 'third', numberedRows(3), { truncated: false });
    const entry = (id: string) => storedEntry(root.path, 'acme', 'req-2', id);
    expect(await entry('first')).toMatchObject({
      result_id: 'first',
      file: 'first.parquet',
      row_count: 3,
      truncated: true,
      columns: [{ name: 'x', kind: 'float' }],
    });
    expect(await entry('second')).toMatchObject({ result_id: 'second', row_count: 3000, truncated: true });
    expect(await entry('third')).toMatchObject({ result_id: 'third', row_count: 3, truncated: false });
    // No file beside the results: each entry is in its parquet file's key-value metadata, and it
    // names its tenant and run as well as the result.
    expect(readdirSync(join(root.path, 'acme', 'req-2')).sort()).toEqual([
      'first.parquet',
      'second.parquet',
      'third.parquet',
    ]);
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    for (const id of ['first', 'second']) {
      const file = join(root.path, 'acme', 'req-2', `${id}.parquet`);
      const kv = await conn.runAndReadAll(
        `SELECT decode(value) FROM parquet_kv_metadata('${file}') WHERE decode(key) = 'nl2sql.result'`,
      );
      const stored = JSON.parse(String(kv.getRows()[0]?.[0]));
      expect(stored).toMatchObject({ tenant_id: 'acme', request_id: 'req-2', entry: { result_id: id } });
    }
    conn.closeSync();
    db.closeSync();
  });

  it('keeps every result of a run written at the same time, each with its own entry', async () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    await Promise.all(ids.map((id) => store.writeResult('acme', 'req-par', id, numberedRows(10))));
    expect(readdirSync(join(root.path, 'acme', 'req-par')).sort()).toEqual(ids.map((id) => `${id}.parquet`));
    for (const id of ids) {
      expect(await storedEntry(root.path, 'acme', 'req-par', id)).toMatchObject({
        result_id: id,
        row_count: 10,
      });
      expect((await store.readPage('acme', 'req-par', id)).total_rows).toBe(10);
    }
  });

  it('keeps each kind of cell as the adapter gave it, including repeated column names', async () => {
    const columns = [
      { name: 'id', kind: 'integer' },
      { name: 'id', kind: 'integer' },
      { name: 'price', kind: 'decimal' },
      { name: 'ok', kind: 'boolean' },
      { name: 'at', kind: 'timestamp' },
      { name: 'ratio', kind: 'float' },
    ] as const;
    const rows = [
      [1, '9007199254740993', 12.5, true, '2024-01-02T03:04:05.123Z', 0.1],
      [2, -3, '12345678901234567890.12', false, null, 'NaN'],
      [null, null, null, null, '2024-02-03T00:00:00', null],
    ];
    await store.writeResult('acme', 'req-kinds', 'r', [{ columns, rows }]);
    const page = await store.readPage('acme', 'req-kinds', 'r');
    expect(page.columns).toEqual(['id', 'id', 'price', 'ok', 'at', 'ratio']);
    expect(page.rows).toEqual(rows);
  });

  it('stores a small result (encoded in process) exactly as a large one (staged in DuckDB)', async () => {
    const columns = [
      { name: 'n', kind: 'integer' },
      { name: 'x', kind: 'float' },
      { name: 'ok', kind: 'boolean' },
      { name: 'Name "q"', kind: 'text' },
      { name: 'd', kind: 'decimal' },
    ] as const;
    const row = (i: number) => [
      i % 7 === 0 ? null : i * 1_000_000_007,
      i % 5 === 0 ? null : i / 3,
      i % 3 === 0 ? null : i % 2 === 0,
      i % 4 === 0 ? null : `name é ${i}`,
      i % 6 === 0 ? null : `${i}.10`,
    ];
    const head = Array.from({ length: 50 }, (_, i) => row(i));
    await store.writeResult('acme', 'req-paths', 'small', [{ columns, rows: head, truncated: true }]);
    // More than one data chunk in two batches: the staged path, whose first 50 rows are the same.
    const rest = Array.from({ length: 2100 }, (_, i) => row(i + 50));
    await store.writeResult('acme', 'req-paths', 'large', [
      { columns, rows: head },
      { columns, rows: rest },
    ]);
    const small = await store.readPage('acme', 'req-paths', 'small', { limit: 50 });
    const large = await store.readPage('acme', 'req-paths', 'large', { limit: 50 });
    expect(small.rows).toEqual(head);
    expect(large.rows).toEqual(small.rows);
    expect(small.columns).toEqual(large.columns);
    const smallEntry = await storedEntry(root.path, 'acme', 'req-paths', 'small');
    const largeEntry = await storedEntry(root.path, 'acme', 'req-paths', 'large');
    expect(smallEntry).toMatchObject({ row_count: 50, truncated: true });
    expect(largeEntry).toMatchObject({ row_count: 2150 });
    expect(smallEntry?.columns).toEqual(largeEntry?.columns);

    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    const typesOf = async (id: string) =>
      (
        await conn.runAndReadAll(
          `DESCRIBE SELECT * FROM read_parquet('${join(root.path, 'acme', 'req-paths', `${id}.parquet`)}')`,
        )
      )
        .getRowsJson()
        .map((r) => [r[0], r[1]]);
    expect(await typesOf('small')).toEqual(await typesOf('large'));
    expect(await typesOf('small')).toEqual([
      ['n', 'BIGINT'],
      ['x', 'DOUBLE'],
      ['ok', 'BOOLEAN'],
      ['Name "q"', 'VARCHAR'],
      ['d', 'VARCHAR'],
    ]);
    conn.closeSync();
    db.closeSync();
  });

  it('writes a result with no columns at all as an empty result', async () => {
    const { ref } = await store.writeResult('acme', 'req-none', 'r', [{ columns: [], rows: [] }]);
    expect(ref).toMatchObject({ row_count: 0, columns: [] });
    const page = await store.readPage('acme', 'req-none', 'r');
    expect(page).toMatchObject({ rows: [], total_rows: 0, columns: [] });
  });

  it('writes an empty result with the columns of its only (empty) batch', async () => {
    const { ref } = await store.writeResult('acme', 'req-empty', 'r', [
      { columns: [{ name: 'a', kind: 'text' }], rows: [] },
    ]);
    expect(ref.row_count).toBe(0);
    expect(ref.columns).toEqual(['a']);
    const page = await store.readPage('acme', 'req-empty', 'r');
    expect(page).toMatchObject({ rows: [], total_rows: 0, next_offset: null, columns: ['a'] });
  });

  it('stores a cell that does not fit its declared kind, the column widened to text (issue 23, item 7)', async () => {
    const { ref, sample } = await store.writeResult(
      'acme',
      'req-wide',
      'r',
      [{ columns: [{ name: 'qty', kind: 'integer' }], rows: [[1], ['many']] }],
      { sampleRows: 5 },
    );
    expect(ref.row_count).toBe(2);
    expect(sample).toEqual([['1'], ['many']]);
    expect((await store.readPage('acme', 'req-wide', 'r')).rows).toEqual(sample);
  });

  it('refuses a row whose width is not its columns with a typed error, leaving no file', async () => {
    const write = store.writeResult('acme', 'req-bad', 'r', [
      { columns: [{ name: 'qty', kind: 'integer' }], rows: [[1], [2, 3]] },
    ]);
    await expect(write).rejects.toBeInstanceOf(StorageWriteError);
    await expect(write).rejects.toMatchObject({ code: 'STORAGE_WRITE_FAILED' });
    expect(existsSync(join(root.path, 'acme', 'req-bad', 'r.parquet'))).toBe(false);
  });

  it('refuses ids that are not plain tokens before touching the disk', async () => {
    for (const [tenant, req, res] of [
      ['acme', '../escape', 'r'],
      ['acme', 'req', 'a/b'],
      ['..', 'req', 'r'],
      ['acme', 'req', 'r.parquet'],
    ]) {
      await expect(store.writeResult(tenant!, req!, res!, numberedRows(1))).rejects.toMatchObject({
        code: 'STORAGE_WRITE_FAILED',
      });
    }
    expect(readdirSync(root.path).sort()).toEqual(['acme']);
  });
});

describe('atomic result writes', () => {
  const root = tempRoot('results-atomic');
  const store = new LocalResultStore(root.path);
  afterAll(async () => {
    await store.close();
    root.remove();
  });

  it('shows no file under the final name while batches are still arriving', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reachedGate!: () => void;
    const atGate = new Promise<void>((resolve) => (reachedGate = resolve));
    async function* slow(): AsyncGenerator<ResultBatch> {
      yield* numberedRows(5000, 1000);
      reachedGate();
      await gate;
      yield* numberedRows(10);
    }
    const writing = store.writeResult('t', 'req', 'r', slow());
    await atGate;
    const dir = join(root.path, 't', 'req');
    expect(existsSync(join(dir, 'r.parquet'))).toBe(false);
    // Only hidden temporary files exist meanwhile, and the run has no manifest entry yet.
    expect(readdirSync(dir).every((name) => name.startsWith('.'))).toBe(true);
    await expect(store.readPage('t', 'req', 'r')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    release();
    const { ref } = await writing;
    expect(ref.row_count).toBe(5010);
    expect(readdirSync(dir).sort()).toEqual(['r.parquet']);
  });

  it('leaves no final file and no temporary litter when the batch iterator fails', async () => {
    async function* failing(): AsyncGenerator<ResultBatch> {
      yield* numberedRows(3000, 1000);
      throw new Error('connection reset by peer');
    }
    await expect(store.writeResult('t', 'req-fail', 'r', failing())).rejects.toThrow(
      /connection reset by peer/,
    );
    const dir = join(root.path, 't', 'req-fail');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps the previous complete file when a rewrite of the same result fails', async () => {
    await store.writeResult('t', 'req-keep', 'r', numberedRows(7));
    async function* failing(): AsyncGenerator<ResultBatch> {
      yield* numberedRows(2);
      throw new Error('boom');
    }
    await expect(store.writeResult('t', 'req-keep', 'r', failing())).rejects.toThrow('boom');
    const page = await store.readPage('t', 'req-keep', 'r');
    expect(page.total_rows).toBe(7);
  });
});
