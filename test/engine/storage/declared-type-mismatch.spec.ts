/**
 * Issue 23, item 7, on each engine: a result whose values do not fit the types the database
 * declares for them is stored whole (never STORAGE_WRITE_FAILED), and the inline sample, the pages
 * and the manifest's kinds agree with what was stored. SQLite types values, not columns (a column
 * declared BOOLEAN holding 'T'/'F', as in held-out Spider data, or INTEGER holding text thousands of
 * rows in); DuckDB's HUGEINT/UBIGINT and MariaDB's BIGINT UNSIGNED/BIT(64) exceed a stored BIGINT;
 * PostgreSQL's special values (infinity, BC dates, NaN) must keep their declared kinds.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Cell, DatasourceAdapter, ResultBatch } from '../../../src/engine/datasources/adapter';
import type { TypeKind } from '../../../src/engine/datasources/schema';
import { createAdapter } from '../../../src/engine/datasources/factory';
import { LocalResultStore } from '../../../src/engine/storage';
import { storedCell } from '../../../src/engine/storage/stored-kinds';
import { build, secrets } from '../../support/datasources/adapter-contract';
import { createFixture, type Fixture } from '../../support/datasources/fixtures';
import { storedEntry, tempRoot } from '../../support/storage-helpers';

const root = tempRoot('declared-mismatch');
const store = new LocalResultStore(root.path);
afterAll(async () => {
  await store.close();
  root.remove();
});

let written = 0;

/**
 * Streams `sql` into a result and checks it: the kinds stored, the sample against the first page,
 * and every row read back against the database's own cells in the stored kinds.
 */
async function storeAndCheck(adapter: DatasourceAdapter, sql: string, kinds: TypeKind[]): Promise<Cell[][]> {
  const id = `r${++written}`;
  const direct = await adapter.execute(sql);
  const batches: AsyncIterable<ResultBatch> = adapter.stream(sql, [], { batchSize: 1000 });
  const { ref, sample } = await store.writeResult('t', 'run', id, batches, { sampleRows: 20 });
  expect(ref.row_count).toBe(direct.rows.length);
  const entry = await storedEntry(root.path, 't', 'run', id);
  expect(entry?.columns.map((c) => c.kind)).toEqual(kinds);
  const expected = direct.rows.map((row) => row.map((v, c) => storedCell(kinds[c]!, v)));
  expect(sample).toEqual(expected.slice(0, 20));
  const read: Cell[][] = [];
  for (let offset = 0; offset < ref.row_count; offset += 1000)
    read.push(...(await store.readPage('t', 'run', id, { offset, limit: 1000 })).rows);
  expect(read).toEqual(expected);
  return sample;
}

describe('SQLite: declared types are affinities, values have their own', () => {
  let adapter: DatasourceAdapter;
  beforeAll(async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'mismatch-')), 'staff.sqlite');
    const db = new Database(path);
    db.exec(
      'CREATE TABLE staff (id INTEGER PRIMARY KEY, Is_full_time BOOLEAN, age INTEGER, born DATE, weight REAL, score NUMERIC)',
    );
    const insert = db.prepare('INSERT INTO staff VALUES (?, ?, ?, ?, ?, ?)');
    db.transaction(() => {
      for (let id = 1; id <= 3000; id++) {
        insert.run(
          id,
          id % 2 ? 'T' : 'F',
          id === 2500 ? 'unknown' : 20 + (id % 50), // text far past the first batch
          id % 3 ? '2024-01-02' : 'yesterday',
          70 + (id % 5), // whole numbers in a REAL column
          id % 4 ? 1.5 : 'N/A',
        );
      }
    })();
    db.close();
    adapter = createAdapter({ id: 'staff', type: 'sqlite', connection: { path } }, { secrets });
  });
  afterAll(() => adapter?.close());

  it("stores a BOOLEAN column holding 'T'/'F' (the held-out Spider case) as text", async () => {
    const sample = await storeAndCheck(adapter, 'SELECT Is_full_time FROM staff WHERE id <= 4 ORDER BY id', [
      'text',
    ]);
    expect(sample).toEqual([['T'], ['F'], ['T'], ['F']]);
  });

  it('stores every column of 3000 rows, text found in an INTEGER column after 2499 rows', async () => {
    await storeAndCheck(adapter, 'SELECT * FROM staff ORDER BY id', [
      'integer',
      'text',
      'text',
      'text',
      'float',
      'text',
    ]);
  });
});

describe('DuckDB: integers past what a stored BIGINT holds', () => {
  let adapter: DatasourceAdapter;
  beforeAll(async () => {
    const fixture = await createFixture('duckdb');
    adapter = build(fixture);
  });
  afterAll(() => adapter?.close());

  it('stores HUGEINT and UBIGINT values as text, and keeps a BC date and NaN in their kinds', async () => {
    const sample = await storeAndCheck(
      adapter,
      `SELECT * FROM (VALUES (170141183460469231731687303715884105727::HUGEINT, 18446744073709551615::UBIGINT, DATE '0044-03-15 (BC)', 'NaN'::DOUBLE),
        (1::HUGEINT, 2::UBIGINT, DATE '2024-01-02', 1.5::DOUBLE)) t(h, u, d, f)`,
      ['text', 'text', 'date', 'float'],
    );
    expect(sample).toEqual([
      ['170141183460469231731687303715884105727', '18446744073709551615', '0044-03-15 (BC)', 'NaN'],
      ['1', '2', '2024-01-02', 1.5],
    ]);
  });
});

describe('MariaDB: unsigned 64-bit integers', () => {
  let fixture: Fixture;
  let adapter: DatasourceAdapter;
  beforeAll(async () => {
    fixture = await createFixture('mysql');
    await fixture.alter('CREATE TABLE wide (id INT PRIMARY KEY, u BIGINT UNSIGNED, b BIT(64), y YEAR)');
    await fixture.alter(
      `INSERT INTO wide VALUES (1, 18446744073709551615, b'${'1'.repeat(64)}', 2024), (2, 1, b'1', 1999)`,
    );
    adapter = build(fixture);
  });
  afterAll(async () => {
    await adapter?.close();
    await fixture?.drop();
  });

  it('stores BIGINT UNSIGNED and BIT(64) values past BIGINT as text', async () => {
    const sample = await storeAndCheck(adapter, 'SELECT u, b, y FROM wide ORDER BY id', [
      'text',
      'text',
      'integer',
    ]);
    expect(sample).toEqual([
      ['18446744073709551615', '18446744073709551615', 2024],
      ['1', '1', 1999],
    ]);
  });
});

describe('PostgreSQL: strict types, special values', () => {
  let fixture: Fixture;
  let adapter: DatasourceAdapter;
  beforeAll(async () => {
    fixture = await createFixture('postgres');
    adapter = build(fixture);
  });
  afterAll(async () => {
    await adapter?.close();
    await fixture?.drop();
  });

  it('keeps infinity, BC dates, NaN, time zones and the largest BIGINT in their declared kinds', async () => {
    const sample = await storeAndCheck(
      adapter,
      `SELECT 'infinity'::date AS d, '0044-03-15 BC'::date AS bc, '-infinity'::timestamp AS ts, 'NaN'::float8 AS f,
              'NaN'::numeric AS n, 9223372036854775807::int8 AS big, '03:04:05+02'::timetz AS tz, '1 day'::interval AS i
       UNION ALL
       SELECT DATE '2024-01-02', DATE '2024-01-02', TIMESTAMP '2024-01-02 03:04:05', 1.5, 12.5, 1, '03:04:05+00', '2 days'`,
      ['date', 'date', 'timestamp', 'float', 'decimal', 'integer', 'time', 'other'],
    );
    expect(sample[0]).toEqual([
      'infinity',
      '0044-03-15 BC',
      '-infinity',
      'NaN',
      'NaN',
      '9223372036854775807',
      '03:04:05+02',
      '1 day',
    ]);
  });
});
