import { compilePlan, importSql } from '../../../src/engine/plan';
import * as b from '../../../src/engine/plan/build';
import { SHOP } from '../../support/plan-fixtures';

describe('importSql', () => {
  it('maps a SELECT onto plan nodes', () => {
    const plan = importSql(
      'SELECT c.name, count(*) AS n FROM customers AS c JOIN orders o ON c.id = o.customer_id WHERE o.amount > 1.5 GROUP BY 1 ORDER BY n DESC LIMIT 3',
      'sqlite',
      SHOP,
    );
    expect(plan).toEqual(
      b.query(
        b.select({
          columns: [b.col('name', 'c'), b.item(b.countStar(), 'n')],
          from: b.join(
            'inner',
            b.table('customers', 'c'),
            b.table('orders', 'o'),
            b.cmp('=', b.col('id', 'c'), b.col('customer_id', 'o')),
          ),
          where: b.cmp('>', b.col('amount', 'o'), b.lit(1.5, 'float')),
          groupBy: [b.col('name', 'c')],
        }),
        { orderBy: [b.order(b.col('n'), 'desc')], limit: 3 },
      ),
    );
  });

  it('keeps source-dialect meaning: SQLite LIKE is case-insensitive, PostgreSQL LIKE is not, MySQL || is OR', () => {
    const like = (d: 'sqlite' | 'postgres') =>
      importSql("SELECT id FROM customers WHERE name LIKE 'a%'", d).body;
    expect(like('sqlite')).toMatchObject({ where: { kind: 'like', case_insensitive: true } });
    expect(like('postgres')).toMatchObject({ where: { kind: 'like', case_insensitive: false } });
    expect(importSql('SELECT id FROM t WHERE a = 1 || b = 2', 'mysql').body).toMatchObject({
      where: { kind: 'or' },
    });
  });

  it('a SQLite "double-quoted" word that names no column is a string', () => {
    const plan = importSql('SELECT id FROM customers WHERE country = "FR"', 'sqlite', SHOP);
    expect(plan.body).toMatchObject({ where: { right: { kind: 'literal', value: 'FR' } } });
  });

  it('set operations with a trailing ORDER BY / LIMIT apply to the whole', () => {
    const plan = importSql(
      'SELECT id FROM customers UNION SELECT customer_id FROM orders ORDER BY 1 LIMIT 2',
      'sqlite',
      SHOP,
    );
    expect(plan).toMatchObject({
      body: { kind: 'set_op', op: 'union', all: false },
      order_by: [{ expr: { kind: 'column', name: 'id' } }],
      limit: 2,
    });
  });

  it('reads CTEs, window frames and PostgreSQL casts', () => {
    const plan = importSql(
      'WITH t AS (SELECT id, amount FROM orders) SELECT id, sum(amount) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), amount::int FROM t',
      'postgres',
    );
    expect(plan.with[0]!.name).toBe('t');
    expect(plan.body).toMatchObject({
      columns: [
        {},
        {
          expr: {
            kind: 'window',
            fn: 'sum',
            frame: { unit: 'rows', start: { bound: 'preceding', offset: 2 } },
          },
        },
        { expr: { kind: 'cast', to: 'integer' } },
      ],
    });
    expect(compilePlan(plan, 'duckdb').sql).toContain('ROWS BETWEEN 2 PRECEDING AND CURRENT ROW');
  });

  it.each([
    ['DELETE FROM orders', 'sqlite', /DELETE statement/],
    ['SELECT 1; SELECT 2', 'sqlite', /several statements/],
    ['SELECT * FROM a NATURAL JOIN b', 'sqlite', /NATURAL JOIN/],
    ['WITH RECURSIVE r AS (SELECT 1) SELECT * FROM r', 'postgres', /WITH RECURSIVE/],
    ['SELECT group_concat(name) FROM customers', 'sqlite', /group_concat/],
  ] as const)('refuses %s with SQL_IMPORT_UNSUPPORTED naming the construct', (sql, d, re) => {
    expect(() => importSql(sql, d)).toThrow(
      expect.objectContaining({ code: 'SQL_IMPORT_UNSUPPORTED', message: expect.stringMatching(re) }),
    );
  });

  it('unparseable SQL is SQL_PARSE_ERROR', () => {
    expect(() => importSql('SELEC id FRM', 'sqlite')).toThrow(
      expect.objectContaining({ code: 'SQL_PARSE_ERROR' }),
    );
  });
});
