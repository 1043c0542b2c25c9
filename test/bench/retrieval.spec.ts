/**
 * Smoke test of `npm run bench -- retrieval`: a two-database dataset in Spider layout, written
 * here, runs through the whole suite and yields every figure of the JSON contract.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { run } from '../../bench/retrieval/index';

const select = (col: number) => [false, [[0, [0, [0, col, false], null]]]];
const sql = (table: number, col: number, where: unknown[] = []) => ({
  from: { table_units: [['table_unit', table]], conds: [] },
  select: select(col),
  where,
  groupBy: [],
  having: [],
  orderBy: [],
  limit: null,
  intersect: null,
  union: null,
  except: null,
});

function writeDataset(dir: string): void {
  const dbs = {
    zoo: "CREATE TABLE animal (animal_id INTEGER PRIMARY KEY, species TEXT, weight REAL); INSERT INTO animal VALUES (1, 'Lion', 190.5);",
    bank: "CREATE TABLE account (acct_id INTEGER PRIMARY KEY, owner_name TEXT, balance REAL); INSERT INTO account VALUES (1, 'Ann', 10);",
  };
  for (const [db, ddl] of Object.entries(dbs)) {
    mkdirSync(join(dir, 'database', db), { recursive: true });
    const conn = new Database(join(dir, 'database', db, `${db}.sqlite`));
    conn.exec(ddl);
    conn.close();
  }
  const tables = [
    {
      db_id: 'zoo',
      table_names: ['animal'],
      table_names_original: ['animal'],
      column_names: [
        [-1, '*'],
        [0, 'animal id'],
        [0, 'species'],
        [0, 'weight'],
      ],
      column_names_original: [
        [-1, '*'],
        [0, 'animal_id'],
        [0, 'species'],
        [0, 'weight'],
      ],
      column_types: ['text', 'number', 'text', 'number'],
      primary_keys: [1],
      foreign_keys: [],
    },
    {
      db_id: 'bank',
      table_names: ['account'],
      table_names_original: ['account'],
      column_names: [
        [-1, '*'],
        [0, 'acct id'],
        [0, 'owner name'],
        [0, 'balance'],
      ],
      column_names_original: [
        [-1, '*'],
        [0, 'acct_id'],
        [0, 'owner_name'],
        [0, 'balance'],
      ],
      column_types: ['text', 'number', 'text', 'number'],
      primary_keys: [1],
      foreign_keys: [],
    },
  ];
  const dev = [
    {
      db_id: 'zoo',
      question: 'What is the weight of each animal?',
      query: 'SELECT weight FROM animal',
      sql: sql(0, 3),
    },
    {
      db_id: 'zoo',
      question: 'List the species of animals heavier than 100.',
      query: 'SELECT species FROM animal WHERE weight > 100',
      sql: sql(0, 2, [[false, 3, [0, [0, 3, false], null], 100, null]]),
    },
    {
      db_id: 'bank',
      question: 'What is the balance of the account owned by Ann?',
      query: "SELECT balance FROM account WHERE owner_name = 'Ann'",
      sql: sql(0, 3, [[false, 2, [0, [0, 2, false], null], '"Ann"', null]]),
    },
    {
      db_id: 'bank',
      question: 'Show the owner names of all accounts.',
      query: 'SELECT owner_name FROM account',
      sql: sql(0, 2),
    },
  ];
  writeFileSync(join(dir, 'tables.json'), JSON.stringify(tables));
  writeFileSync(join(dir, 'dev.json'), JSON.stringify(dev));
}

describe('bench: retrieval (smoke)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bench-retrieval-smoke-'));
    writeDataset(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('measures routing and linking for the index and BM25 with the JSON keys of the contract', async () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    const figures = await run({ data: dir, options: {} });
    log.mockRestore();
    const keys = [
      'routing_top1',
      'routing_top3',
      'table_recall_at_3',
      'column_recall_at_10',
      'pooled_table_recall_at_5',
      'pooled_column_recall_at_10',
      'build_s',
      'query_ms',
    ];
    expect(Object.keys(figures).sort()).toEqual(['suite', 'questions', 'databases', 'bm25', ...keys].sort());
    expect(Object.keys(figures.bm25).sort()).toEqual([...keys].sort());
    expect(figures).toMatchObject({ suite: 'retrieval', questions: 4, databases: 2 });
    // Two one-table databases with distinct words: routing and linking are all-or-nothing here.
    expect(figures.routing_top1).toBe(1);
    expect(figures.column_recall_at_10).toBe(1);
    expect(figures.pooled_table_recall_at_5).toBe(1);
    expect(figures.query_ms.p95).toBeGreaterThanOrEqual(figures.query_ms.p50);
  });

  it('honours --limit and refuses a run without --data', async () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    const figures = await run({ data: dir, options: { limit: '2' } });
    log.mockRestore();
    expect(figures.questions).toBe(2);
    await expect(run({ options: {} })).rejects.toThrow('--data DIR is required');
  });
});
