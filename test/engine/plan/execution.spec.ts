/**
 * Compiled plans executed on real engines: a SQLite file, a DuckDB file, PostgreSQL and MySQL
 * (databases with unique names, dropped afterwards). Each plan has one expected result, the
 * meaning the plan language defines, and every engine must return it.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  openDuckDb,
  openMysql,
  openPostgres,
  openSqlite,
  runPrefix,
  DEFAULT_SERVERS,
  type Engine,
} from '../../../bench/roundtrip/engines';
import { introspectSqlite } from '../../../bench/support/sqlite-snapshot';
import { compareResults } from '../../../bench/roundtrip/compare';
import type { Dialect, SchemaSnapshot } from '../../../src/engine/datasources/schema';
import { compilePlan, type Plan } from '../../../src/engine/plan';
import * as b from '../../../src/engine/plan/build';
import type * as T from '../../../src/engine/plan/types';
import { CUSTOMERS, ORDERS } from '../../support/plan-fixtures';

let dir: string;
let schema: SchemaSnapshot;
const engines = new Map<Dialect, Engine>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'plan-exec-'));
  const path = join(dir, 'shop.sqlite');
  const db = new Database(path);
  db.exec('CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, email TEXT, country TEXT)');
  db.exec(
    'CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), amount REAL, code TEXT, placed TEXT)',
  );
  for (const r of CUSTOMERS) db.prepare('INSERT INTO customers VALUES (?, ?, ?, ?)').run(...r);
  for (const r of ORDERS) db.prepare('INSERT INTO orders VALUES (?, ?, ?, ?, ?)').run(...r);
  db.close();
  schema = introspectSqlite(path, 'shop');
  const name = `${runPrefix()}_plan`;
  engines.set('sqlite', await openSqlite(path));
  engines.set('duckdb', await openDuckDb(path, schema));
  engines.set('postgres', await openPostgres(path, schema, name, DEFAULT_SERVERS));
  engines.set('mysql', await openMysql(path, schema, name, DEFAULT_SERVERS));
});

afterAll(async () => {
  for (const e of engines.values()) await e.close();
  rmSync(dir, { recursive: true, force: true });
});

async function expectEverywhere(plan: Plan, expected: unknown[][], ordered = false): Promise<void> {
  for (const [d, engine] of engines) {
    const { sql, params } = compilePlan(plan, d, { schema, rowCap: 1000 });
    const rows = await engine.run(sql, params);
    expect({ d, sql, outcome: compareResults(expected, rows, ordered) }).toEqual({
      d,
      sql,
      outcome: { equal: true },
    });
  }
}

const orders = (parts: Omit<Parameters<typeof b.select>[0], 'from'>) =>
  b.select({ from: b.table('orders'), ...parts });

describe('compiled plans on sqlite, duckdb, postgres and mysql', () => {
  it('a number compared with a text column compares as text', async () => {
    await expectEverywhere(
      b.query(orders({ columns: [b.col('id')], where: b.cmp('>', b.col('code'), b.lit(150)) })),
      [[2], [4]],
    );
  });

  it('integer / integer truncates; text is read as its number in AVG', async () => {
    await expectEverywhere(
      b.query(
        orders({
          columns: [
            b.arith('/', b.agg('sum', b.col('customer_id')), b.countStar()),
            b.agg('avg', b.col('code')),
          ],
        }),
      ),
      [[1, 317]],
    );
  });

  it('LIKE is case-insensitive unless asked otherwise; text equality is exact', async () => {
    const like = (p: string, ci: boolean) =>
      b.query(
        b.select({
          columns: [b.col('name')],
          from: b.table('customers'),
          where: b.like(b.col('name'), b.lit(p), false, ci),
        }),
      );
    await expectEverywhere(like('B%', true), [['bob']]);
    await expectEverywhere(like('B%', false), []);
    await expectEverywhere(
      b.query(
        b.select({
          columns: [b.col('id')],
          from: b.table('customers'),
          where: b.cmp('=', b.col('name'), b.lit('ann')),
        }),
      ),
      [],
    );
  });

  it('NULLs sort as the smallest value by default, and where asked', async () => {
    const q = (dir: 'asc' | 'desc', nulls: 'first' | 'last' | null = null) =>
      b.query(orders({ columns: [b.col('id')] }), { orderBy: [b.order(b.col('amount'), dir, nulls)] });
    await expectEverywhere(q('asc'), [[3], [4], [1], [2]], true);
    await expectEverywhere(q('desc'), [[2], [1], [4], [3]], true);
    await expectEverywhere(q('asc', 'last'), [[4], [1], [2], [3]], true);
  });

  it('a bare column beside one MAX comes from the row of the max', async () => {
    await expectEverywhere(b.query(orders({ columns: [b.col('code'), b.agg('max', b.col('amount'))] })), [
      ['98', 20],
    ]);
  });

  it('joins, grouping by a key, HAVING and LIMIT', async () => {
    const plan = b.query(
      b.select({
        columns: [b.col('name', 'c'), b.item(b.countStar(), 'n')],
        from: b.join(
          'left',
          b.table('customers', 'c'),
          b.table('orders', 'o'),
          b.cmp('=', b.col('id', 'c'), b.col('customer_id', 'o')),
        ),
        groupBy: [b.col('id', 'c')],
        having: b.cmp('>=', b.countStar(), b.lit(1)),
      }),
      { orderBy: [b.order(b.col('n'), 'desc')], limit: 1 },
    );
    await expectEverywhere(plan, [['Ann', 2]], true);
  });

  it('set operations, IN / EXISTS subqueries, CTEs, derived tables, scalar subqueries', async () => {
    const ids = b.select({ columns: [b.col('id')], from: b.table('customers') });
    const buyers = b.select({
      columns: [b.col('customer_id')],
      from: b.table('orders'),
      where: b.cmp('>', b.col('amount'), b.lit(8.5)),
    });
    await expectEverywhere(b.query(b.setOp('except', ids, buyers)), [[2], [3]]);
    await expectEverywhere(b.query(b.setOp('union', buyers, b.setOp('intersect', ids, buyers))), [[1]]);
    const plan = b.query(
      b.select({
        columns: [
          b.col('name'),
          b.item(
            b.subquery(b.query(b.select({ columns: [b.agg('max', b.col('amount'))], from: b.table('big') }))),
            'top',
          ),
        ],
        from: b.derived(
          b.query(b.select({ columns: [b.col('id'), b.col('name')], from: b.table('customers') })),
          'c',
        ),
        where: b.and(
          b.inQuery(
            b.col('id'),
            b.query(b.select({ columns: [b.col('customer_id')], from: b.table('big') })),
          ),
          b.exists(
            b.query(
              b.select({
                columns: [b.lit(1)],
                from: b.table('orders', 'o'),
                where: b.cmp('=', b.col('customer_id', 'o'), b.col('id', 'c')),
              }),
            ),
          ),
        ),
      }),
      {
        with: [
          b.cte(
            'big',
            b.query(
              b.select({
                columns: [b.star()],
                from: b.table('orders'),
                where: b.isNull(b.col('amount'), true),
              }),
            ),
          ),
        ],
      },
    );
    await expectEverywhere(plan, [
      ['Ann', 20],
      ['Cyd', 20],
    ]);
  });

  it('window functions with a frame, CASE and date parts', async () => {
    const plan = b.query(
      orders({
        columns: [
          b.col('id'),
          b.windowFn('row_number', [], {
            partitionBy: [b.col('customer_id')],
            orderBy: [b.order(b.col('id'))],
          }),
          b.windowFn('count', [], {
            orderBy: [b.order(b.col('id'))],
            frame: {
              unit: 'rows',
              start: { bound: 'preceding', offset: 1 },
              end: { bound: 'current_row', offset: null },
            },
          }),
          b.caseWhen(null, [{ when: b.isNull(b.col('amount')), then: b.lit('none') }], b.lit('some')),
          b.fn('year', b.col('placed')),
        ],
      }),
    );
    await expectEverywhere(plan, [
      [1, 1, 1, 'some', 2024],
      [2, 2, 2, 'some', 2024],
      [3, 1, 2, 'none', 2023],
      [4, 1, 2, 'some', 2024],
    ]);
  });

  it('ties under ORDER BY .. LIMIT: every engine returns the rows SQLite itself returns', async () => {
    // Customers 2 and 3 tie with one order each; customers FR 1 and FR 3 tie on country.
    const busiest = (direction: 'asc' | 'desc', limit: number) =>
      b.query(orders({ columns: [b.col('customer_id')], groupBy: [b.col('customer_id')] }), {
        orderBy: [b.order(b.countStar(), direction)],
        limit,
      });
    const byCountry = b.query(b.select({ columns: [b.col('id')], from: b.table('customers') }), {
      orderBy: [b.order(b.col('country'), 'desc')],
      limit: 1,
    });
    const native = engines.get('sqlite')!;
    const cases: [Plan, string][] = [
      [
        busiest('desc', 2),
        'SELECT customer_id FROM orders GROUP BY customer_id ORDER BY COUNT(*) DESC LIMIT 2',
      ],
      [
        busiest('asc', 1),
        'SELECT customer_id FROM orders GROUP BY customer_id ORDER BY COUNT(*) ASC LIMIT 1',
      ],
      [byCountry, 'SELECT id FROM customers ORDER BY country DESC LIMIT 1'],
    ];
    for (const [plan, plainSql] of cases) {
      // SQLite's own answer to the SQL without tie-breakers is the reference.
      const expected = await native.run(plainSql, []);
      expect(expected.length).toBeGreaterThan(0);
      await expectEverywhere(plan, expected, true);
    }
    expect(await native.run(cases[0]![1], [])).toEqual([[1], [3]]);
  });

  it('DISTINCT ordered by a column it does not select runs everywhere (PostgreSQL refuses it as written)', async () => {
    const plan = b.query(
      b.select({ distinct: true, columns: [b.col('country')], from: b.table('customers') }),
      {
        orderBy: [b.order(b.col('id'), 'desc')],
        limit: 2,
      },
    );
    // Each country sorts at its first row in id DESC order: FR (id 3), then DE (id 2).
    await expectEverywhere(plan, [['FR'], ['DE']], true);
  });

  it('hostile literal values match nothing and change nothing', async () => {
    for (const v of ["x' OR '1'='1", "'; DELETE FROM customers; --", "\\' OR 1=1 -- "]) {
      await expectEverywhere(
        b.query(
          b.select({
            columns: [b.col('id')],
            from: b.table('customers'),
            where: b.cmp('=', b.col('name'), b.lit(v)),
          }),
        ),
        [],
      );
    }
    await expectEverywhere(b.query(b.select({ columns: [b.countStar()], from: b.table('customers') })), [
      [3],
    ]);
  });
});

/**
 * Issue 26: functions whose argument is an integer count or position (ROUND's digits, SUBSTR's
 * start and length, NTILE's buckets, LAG/LEAD's offset) exist for INTEGER only on some engines
 * (DuckDB's round(DOUBLE, INTEGER), PostgreSQL's substr(text, integer, integer)), while a bound
 * integer or an integer expression there is BIGINT. Literals stay bound.
 */
describe('functions with integer arguments, literal or computed, on every engine', () => {
  const byId = (columns: T.Expr[]) =>
    b.query(orders({ columns: [b.col('id'), ...columns] }), { orderBy: [b.order(b.col('id'))] });

  it('ROUND(x, digits)', async () => {
    await expectEverywhere(
      byId([
        b.fn('round', b.col('amount'), b.lit(1)),
        b.fn(
          'round',
          b.arith('/', b.col('amount'), b.lit(3)),
          b.arith('-', b.fn('length', b.col('code')), b.lit(2)),
        ),
      ]),
      [
        [1, 10.5, 3.5],
        [2, 20, 7],
        [3, null, null],
        [4, 7, 2],
      ],
      true,
    );
  });

  it('SUBSTR(x, start[, length]) with literal and computed positions', async () => {
    const name = b.col('name');
    await expectEverywhere(
      b.query(
        b.select({
          columns: [
            b.col('id'),
            b.fn('substring', name, b.arith('-', b.fn('length', name), b.lit(1)), b.lit(2)),
            b.fn('substring', name, b.lit(2)),
            b.fn('substring', name, b.lit(1), b.col('id')),
          ],
          from: b.table('customers'),
        }),
        { orderBy: [b.order(b.col('id'))] },
      ),
      [
        [1, 'nn', 'nn', 'A'],
        [2, 'ob', 'ob', 'bo'],
        [3, 'yd', 'yd', 'Cyd'],
      ],
      true,
    );
  });

  it('NTILE(n), LAG(x, offset) and LEAD(x, offset)', async () => {
    const over = { orderBy: [b.order(b.col('id'))] };
    await expectEverywhere(
      byId([
        b.windowFn('ntile', [b.lit(2)], over),
        b.windowFn('lag', [b.col('amount'), b.lit(1)], over),
        b.windowFn('lead', [b.col('id'), b.arith('+', b.lit(1), b.lit(1))], over),
      ]),
      [
        [1, 1, null, 3],
        [2, 1, 10.5, 4],
        [3, 2, 20, null],
        [4, 2, null, null],
      ],
      true,
    );
  });
});
