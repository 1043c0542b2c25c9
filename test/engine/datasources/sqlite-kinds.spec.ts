/**
 * SQLite types values, not columns. The kinds a SQLite result reports must fit every value of the
 * batch they describe, or its Parquet artifact cannot be written (found by the e2e bench: AVG()
 * whose first group averaged 12.0 and the next 13.4).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SecretManager } from '../../../src/config/secrets';
import type { DatasourceAdapter, ResultBatch } from '../../../src/engine/datasources/adapter';
import { createAdapter } from '../../../src/engine/datasources/factory';
import { LocalResultStore } from '../../../src/engine/storage';

let adapter: DatasourceAdapter;
const dir = mkdtempSync(join(tmpdir(), 'nl2sql-kinds-'));
const store = new LocalResultStore(join(dir, 'results'));

beforeAll(async () => {
  const path = join(dir, 'pets.sqlite');
  const db = new Database(path);
  db.exec(`
    CREATE TABLE pets (id INTEGER PRIMARY KEY, kind TEXT, weight REAL, age INTEGER);
    INSERT INTO pets VALUES (1, 'cat', 12.0, 3), (2, 'cat', 12.0, 4), (3, 'dog', 13.4, 'unknown'), (4, 'dog', 13.4, 5);
  `);
  db.close();
  adapter = createAdapter(
    { id: 'pets', type: 'sqlite', connection: { path } },
    { secrets: new SecretManager({}) },
  );
  await adapter.connect();
});
afterAll(async () => {
  await adapter.close();
  await store.close();
});

async function collect(sql: string): Promise<ResultBatch[]> {
  const batches: ResultBatch[] = [];
  for await (const b of adapter.stream(sql)) batches.push(b);
  return batches;
}

it('reports an expression column of REAL values as float even when the first value is whole', async () => {
  const [batch] = await collect('SELECT kind, AVG(weight) AS w FROM pets GROUP BY kind ORDER BY kind');
  expect(batch!.columns).toEqual([
    { name: 'kind', kind: 'text' },
    { name: 'w', kind: 'float' },
  ]);
  expect(batch!.rows).toEqual([
    ['cat', 12],
    ['dog', 13.4],
  ]);
  const { ref } = await store.writeResult('t', 'r1', 'sq1', batch ? [batch] : []);
  expect(ref.row_count).toBe(2);
});

it('reports a declared INTEGER column that holds text as text, and keeps INTEGER as integer otherwise', async () => {
  const [mixed] = await collect('SELECT age FROM pets ORDER BY id');
  expect(mixed!.columns).toEqual([{ name: 'age', kind: 'text' }]);
  const { ref } = await store.writeResult('t', 'r2', 'sq1', mixed ? [mixed] : []);
  expect(ref.row_count).toBe(4);
  const [ints] = await collect('SELECT id, COUNT(*) AS n FROM pets GROUP BY id ORDER BY id');
  expect(ints!.columns).toEqual([
    { name: 'id', kind: 'integer' },
    { name: 'n', kind: 'integer' },
  ]);
});
