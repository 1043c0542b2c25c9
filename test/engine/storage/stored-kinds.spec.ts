/**
 * Issue 23, item 7: whatever the database returns is stored. A column's stored kind is chosen from
 * its values (the declared kind first, then integer, float, boolean, text), on both write paths
 * (in-process Parquet for small results, DuckDB staging for large ones, where a misfit may come at
 * any row), and the inline sample, the pages and the manifest's kinds all agree with the file.
 */
import type { Cell, ResultBatch, ResultColumn } from '../../../src/engine/datasources/adapter';
import type { TypeKind } from '../../../src/engine/datasources/schema';
import { LocalResultStore } from '../../../src/engine/storage';
import { ColumnKinds, fits, storedCell } from '../../../src/engine/storage/stored-kinds';
import { storedEntry, tempRoot } from '../../support/storage-helpers';

const HUGE = '170141183460469231731687303715884105727';

/** declared kind, values, kind stored, the cells as read back */
const CASES: [string, TypeKind, Cell[], TypeKind, Cell[]][] = [
  ['boolean holding T/F text', 'boolean', ['T', 'F', null], 'text', ['T', 'F', null]],
  ['boolean holding 0/1', 'boolean', [1, 0], 'integer', [1, 0]],
  ['boolean holding booleans and text', 'boolean', [true, 'T'], 'text', ['true', 'T']],
  ['integer holding text', 'integer', [3, 'unknown', 5], 'text', ['3', 'unknown', '5']],
  ['integer holding reals', 'integer', [12, 13.4], 'float', [12, 13.4]],
  ['integer past 2^53', 'integer', ['9007199254740993', 1], 'integer', ['9007199254740993', 1]],
  ['integer past BIGINT (DuckDB HUGEINT)', 'integer', [HUGE, 1], 'text', [HUGE, '1']],
  ['date holding text', 'date', ['2024-01-02', 'yesterday'], 'text', ['2024-01-02', 'yesterday']],
  [
    'date holding numbers (SQLite NUMERIC affinity)',
    'date',
    [20240102, 20240103],
    'integer',
    [20240102, 20240103],
  ],
  [
    'date with its special values',
    'date',
    ['infinity', '0044-03-15 BC', '0044-03-15 (BC)'],
    'date',
    ['infinity', '0044-03-15 BC', '0044-03-15 (BC)'],
  ],
  ['real holding integers', 'float', [1, 2, 3], 'float', [1, 2, 3]],
  ['real with NaN', 'float', [1.5, 'NaN', '-Infinity'], 'float', [1.5, 'NaN', '-Infinity']],
  ['real holding text', 'float', [1.5, 'n/a'], 'text', ['1.5', 'n/a']],
  [
    'decimal, exact and not',
    'decimal',
    [12.5, '12345678901234567.1'],
    'decimal',
    [12.5, '12345678901234567.1'],
  ],
  ['decimal holding text', 'decimal', ['N/A', 1.5], 'text', ['N/A', '1.5']],
  ['text holding numbers only', 'text', [1, 2], 'integer', [1, 2]],
  [
    'timestamp forms',
    'timestamp',
    ['2024-01-02T03:04:05', '2024-01-02T03:04:05.5+02', '2024-01-02T03:04:05Z'],
    'timestamp',
    ['2024-01-02T03:04:05', '2024-01-02T03:04:05.5+02', '2024-01-02T03:04:05Z'],
  ],
  [
    'time with an offset and past a day',
    'time',
    ['03:04:05+02', '-838:59:59'],
    'time',
    ['03:04:05+02', '-838:59:59'],
  ],
  ['blob holding text', 'blob', ['qrs=', 'abc'], 'text', ['qrs=', 'abc']],
  ['json holding text', 'json', ['{"a":1}', 'not json'], 'text', ['{"a":1}', 'not json']],
  ['only nulls keep the declared kind', 'boolean', [null, null], 'boolean', [null, null]],
];

describe('the kind a column is stored as', () => {
  it.each(CASES)('%s', (_name, declared, values, kind, readBack) => {
    const kinds = new ColumnKinds([{ name: 'c', kind: declared }]);
    kinds.observe(values.map((v) => [v]));
    expect(kinds.kinds()).toEqual([kind]);
    expect(values.map((v) => storedCell(kind, v))).toEqual(readBack);
    // a kind is only ever chosen when every value fits it, or it is the text everything becomes
    if (values.every((v, i) => v === readBack[i]))
      expect(values.every((v) => v === null || fits(kind, v))).toBe(true);
  });
});

describe('a result whose values do not fit their declared types, written and read back', () => {
  const root = tempRoot('stored-kinds');
  const store = new LocalResultStore(root.path);
  afterAll(async () => {
    await store.close();
    root.remove();
  });

  const columns: ResultColumn[] = CASES.map(([, declared], i) => ({ name: `c${i}`, kind: declared }));
  /** Row r holds value r of each case (cycled), so every case's values all appear. */
  const rowsOf = (count: number): Cell[][] =>
    Array.from({ length: count }, (_, r) => CASES.map(([, , values]) => values[r % values.length] ?? null));

  async function check(id: string, batches: ResultBatch[], total: number): Promise<void> {
    const { ref, sample } = await store.writeResult('t', 'run', id, batches, { sampleRows: 20 });
    expect(ref.row_count).toBe(total);
    const entry = await storedEntry(root.path, 't', 'run', id);
    expect(entry?.columns.map((c) => c.kind)).toEqual(CASES.map(([, , , kind]) => kind));
    // the inline sample is what the file holds
    const page = await store.readPage('t', 'run', id, { offset: 0, limit: 20 });
    expect(page.rows).toEqual(sample);
    expect(sample).toEqual(
      rowsOf(20).map((row) =>
        row.map((v, c) => (v === null ? null : CASES[c]![4][CASES[c]![2].indexOf(v)]!)),
      ),
    );
  }

  it('in the small, in-process path', async () => {
    await check('small', [{ columns, rows: rowsOf(60) }], 60);
  });

  it('in the staged path, the misfits coming after thousands of rows that fit the declared kinds', async () => {
    // The first 3000 rows hold only values each declared kind fits; the cases' other values come after.
    const fitting = (r: number): Cell[] =>
      CASES.map(
        ([, declared, values]) =>
          values.find((v) => v !== null && fits(declared, v)) ?? values[r % values.length] ?? null,
      );
    const early = Array.from({ length: 3000 }, (_, r) => fitting(r));
    const late = rowsOf(2000);
    const batches: ResultBatch[] = [];
    for (let i = 0; i < early.length; i += 1000) batches.push({ columns, rows: early.slice(i, i + 1000) });
    for (let i = 0; i < late.length; i += 500) batches.push({ columns, rows: late.slice(i, i + 500) });
    const { ref, sample } = await store.writeResult('t', 'run', 'staged', batches, { sampleRows: 5 });
    expect(ref.row_count).toBe(5000);
    const entry = await storedEntry(root.path, 't', 'run', 'staged');
    expect(entry?.columns.map((c) => c.kind)).toEqual(CASES.map(([, , , kind]) => kind));
    // every row reads back as its values stored in the final kinds, the early ones restaged too
    const all = [...early, ...late];
    for (const offset of [0, 2990, 3000, 4990]) {
      const page = await store.readPage('t', 'run', 'staged', { offset, limit: 10 });
      expect(page.rows).toEqual(
        all
          .slice(offset, offset + 10)
          .map((row) => row.map((v, c) => storedCell(entry!.columns[c]!.kind, v))),
      );
    }
    expect((await store.readPage('t', 'run', 'staged', { offset: 0, limit: 5 })).rows).toEqual(sample);
  });

  it('gives the same kinds and cells on both paths', async () => {
    const rows = rowsOf(2100); // past one data chunk: staged
    await store.writeResult('t', 'run', 'big', [{ columns, rows }]);
    await store.writeResult('t', 'run', 'part', [{ columns, rows: rows.slice(0, 100) }]);
    const big = await storedEntry(root.path, 't', 'run', 'big');
    const part = await storedEntry(root.path, 't', 'run', 'part');
    expect(big?.columns).toEqual(part?.columns);
    expect((await store.readPage('t', 'run', 'big', { limit: 100 })).rows).toEqual(
      (await store.readPage('t', 'run', 'part', { limit: 100 })).rows,
    );
  });
});
