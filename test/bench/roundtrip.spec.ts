/**
 * Smoke test of the roundtrip bench: its core runs on a tiny dataset in Spider's layout (written
 * here, gold results computed on SQLite as the real dataset's are) on all four engines, and the
 * figures have the shape `--json` writes.
 */
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { figures, runRoundtrip } from '../../bench/roundtrip/core';
import { run } from '../../bench/roundtrip/index';

const QUESTIONS = [
  ['How many pets weigh more than 10?', 'SELECT count(*) FROM pets WHERE weight > 10', 'easy'],
  ['Heaviest pet per type', 'SELECT max(weight), pettype FROM pets GROUP BY pettype', 'medium'],
  ['Pets by code as text', 'SELECT petid FROM pets WHERE code > 150 ORDER BY petid', 'medium'],
  ['Type of the oldest', 'SELECT pettype FROM pets ORDER BY pet_age DESC LIMIT 1', 'hard'],
  [
    'Owners without pets',
    'SELECT name FROM owners EXCEPT SELECT T1.name FROM owners AS T1 JOIN pets AS T2 ON T1.id = T2.owner',
    'extra',
  ],
] as const;

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'roundtrip-smoke-'));
  mkdirSync(join(dir, 'database', 'pets_1'), { recursive: true });
  const db = new Database(join(dir, 'database', 'pets_1', 'pets_1.sqlite'));
  db.exec('CREATE TABLE owners (id INTEGER PRIMARY KEY, name TEXT)');
  db.exec(
    'CREATE TABLE pets (petid INTEGER PRIMARY KEY, pettype TEXT, pet_age INTEGER, weight REAL, code TEXT, owner INTEGER REFERENCES owners(id))',
  );
  db.exec("INSERT INTO owners VALUES (1, 'Ann'), (2, 'Bob'), (3, 'Cyd')");
  db.exec(
    "INSERT INTO pets VALUES (1, 'cat', 3, 12.0, '150', 1), (2, 'dog', 2, 13.4, '98', 1), (3, 'dog', 1, 9.3, '1000', 2)",
  );
  const gold = QUESTIONS.map(([, sql], idx) => ({
    idx,
    db_id: 'pets_1',
    columns: [],
    rows: db.prepare(sql).raw(true).all(),
    ordered: /order by/i.test(sql),
  }));
  db.close();
  writeFileSync(
    join(dir, 'dev.json'),
    JSON.stringify(QUESTIONS.map(([question, query]) => ({ db_id: 'pets_1', question, query, sql: {} }))),
  );
  writeFileSync(
    join(dir, 'tables.json'),
    JSON.stringify([
      {
        db_id: 'pets_1',
        table_names: [],
        table_names_original: [],
        column_names: [],
        column_names_original: [],
        column_types: [],
        primary_keys: [],
        foreign_keys: [],
      },
    ]),
  );
  writeFileSync(join(dir, 'dev_gold_results.jsonl'), gold.map((g) => JSON.stringify(g)).join('\n'));
  writeFileSync(
    join(dir, 'dev_annotations.jsonl'),
    QUESTIONS.map(([, , hardness], idx) =>
      JSON.stringify({ idx, hardness, executes: true, data_incomplete: false }),
    ).join('\n'),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench roundtrip', () => {
  it('imports, validates, compiles and matches every question on all four engines', async () => {
    const result = await runRoundtrip({ data: dir });
    expect(result.questions).toBe(QUESTIONS.length);
    const failures = result.outcomes.flatMap((o) =>
      Object.entries(o.dialects)
        .filter(([, x]) => !x?.matched)
        .map(([d, x]) => `#${o.idx} ${d}: ${x?.reason}`),
    );
    expect(failures).toEqual([]);
    expect(figures(result)).toEqual({
      suite: 'roundtrip',
      questions: 5,
      dialects: Object.fromEntries(
        ['sqlite', 'duckdb', 'postgres', 'mysql'].map((d) => [d, { imported: 1, validated: 1, matched: 1 }]),
      ),
    });
  });

  it('the suite entry honours --dialects and --limit and reports a wrong answer as unmatched', async () => {
    writeFileSync(
      join(dir, 'dev_gold_results.jsonl'),
      JSON.stringify({ idx: 0, db_id: 'pets_1', columns: [], rows: [[99]], ordered: false }),
    );
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    const err = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const out = await run({ data: dir, options: { dialects: 'sqlite,duckdb', limit: '1' } });
      expect(out).toEqual({
        suite: 'roundtrip',
        questions: 1,
        dialects: {
          sqlite: { imported: 1, validated: 1, matched: 0 },
          duckdb: { imported: 1, validated: 1, matched: 0 },
        },
      });
      expect(log.mock.calls.flat().join('\n')).toContain('row 0: got [2], expected [99]');
    } finally {
      log.mockRestore();
      err.mockRestore();
    }
  });
});
