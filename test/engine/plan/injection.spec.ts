/**
 * Hostile values in literals and identifiers never change the statement's shape: literals are
 * always bound, identifiers always quoted, and the display form escapes what it inlines.
 */
import Database from 'better-sqlite3';
import { compilePlan } from '../../../src/engine/plan';
import * as b from '../../../src/engine/plan/build';
import type { Dialect } from '../../../src/engine/datasources/schema';

const DIALECTS: Dialect[] = ['sqlite', 'postgres', 'duckdb', 'mysql'];
const HOSTILE = [
  "x' OR '1'='1",
  "'; DROP TABLE t; --",
  "a\\' OR 1=1 -- ",
  '" OR ""="',
  '` OR 1 --',
  '$1',
  '?',
  '\u2019 OR 1=1',
];

describe('injection attempts', () => {
  it('literal values are parameters: the SQL text is the same whatever the value', () => {
    for (const d of DIALECTS) {
      const shape = (v: string) =>
        compilePlan(
          b.query(
            b.select({ columns: [b.col('a')], from: b.table('t'), where: b.cmp('=', b.col('a'), b.lit(v)) }),
          ),
          d,
        );
      const reference = shape('plain');
      for (const v of HOSTILE) {
        const out = shape(v);
        expect(out.sql).toBe(reference.sql);
        expect(out.params).toEqual([v]);
      }
    }
  });

  it('identifiers are quoted, so a hostile name stays one identifier', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (a TEXT)');
    db.exec("INSERT INTO t VALUES ('x')");
    for (const name of ['a" FROM t; DROP TABLE t; --', 'a`; DROP TABLE t', 'a"']) {
      const out = compilePlan(b.query(b.select({ columns: [b.col(name)], from: b.table('t') })), 'sqlite');
      // The whole name is one quoted identifier: the statement fails as "no such column", it never runs a second statement.
      expect(() => db.prepare(out.sql).all()).toThrow(/no such column/);
      expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 1 });
      for (const d of DIALECTS) {
        const sql = compilePlan(b.query(b.select({ columns: [b.col(name)], from: b.table('t') })), d).sql;
        const q = d === 'mysql' ? '`' : '"';
        const quoted = `${q}${name.split(q).join(q + q)}${q}`;
        expect(sql).toBe(`SELECT ${quoted} FROM ${q}t${q}`);
      }
    }
    db.close();
  });

  it('display SQL escapes inlined values so that they stay one literal', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (a TEXT)');
    for (const v of HOSTILE) {
      const out = compilePlan(
        b.query(
          b.select({ columns: [b.col('a')], from: b.table('t'), where: b.cmp('=', b.col('a'), b.lit(v)) }),
        ),
        'sqlite',
      );
      db.prepare('INSERT INTO t VALUES (?)').run(v);
      expect(db.prepare(out.displaySql).all()).toEqual([{ a: v }]);
      db.exec('DELETE FROM t');
    }
    db.close();
  });
});
