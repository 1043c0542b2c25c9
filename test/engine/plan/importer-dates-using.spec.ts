/**
 * Importer: EXTRACT / date_part become the plan's date-part functions; JOIN .. USING becomes an ON
 * condition (with the schema), and a bare USING column the column it stands for.
 */
import { compilePlan, importSql, validatePlan } from '../../../src/engine/plan';
import * as b from '../../../src/engine/plan/build';
import { SHOP } from '../../support/plan-fixtures';

const firstColumn = (sql: string, d: 'postgres' | 'mysql' | 'duckdb' | 'sqlite') => {
  const body = importSql(sql, d, SHOP).body;
  if (body.kind !== 'select') throw new Error('expected a select');
  return body.columns[0]!.expr;
};

describe('importSql: date parts', () => {
  it.each(['YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND'])(
    'EXTRACT(%s FROM x) in postgres, duckdb and mysql is the plan function of that name',
    (unit) => {
      for (const d of ['postgres', 'duckdb', 'mysql'] as const) {
        expect(firstColumn(`SELECT EXTRACT(${unit} FROM o.placed) FROM orders AS o`, d)).toEqual(
          b.fn(unit.toLowerCase() as 'year', b.col('placed', 'o')),
        );
      }
    },
  );

  it("date_part('unit', x) (and DuckDB's plural units) is the same function", () => {
    expect(firstColumn("SELECT date_part('year', placed) FROM orders", 'postgres')).toEqual(
      b.fn('year', b.col('placed')),
    );
    expect(firstColumn("SELECT date_part('months', placed) FROM orders", 'duckdb')).toEqual(
      b.fn('month', b.col('placed')),
    );
  });

  it('a date part in WHERE compiles to each dialect', () => {
    const plan = importSql('SELECT id FROM orders WHERE EXTRACT(YEAR FROM placed) = 2024', 'postgres', SHOP);
    expect(validatePlan(plan, SHOP, { datasourceId: 'shop' }).ok).toBe(true);
    expect(compilePlan(plan, 'sqlite', { schema: SHOP }).sql).toBe(
      `SELECT "id" FROM "orders" WHERE CAST(STRFTIME('%Y', "placed") AS INTEGER) = CAST(? AS INTEGER)`,
    );
    expect(compilePlan(plan, 'mysql', { schema: SHOP }).sql).toBe(
      'SELECT `id` FROM `orders` WHERE YEAR(`placed`) = ?',
    );
  });

  it.each([
    ['SELECT EXTRACT(EPOCH FROM placed) FROM orders', 'postgres', /date part EPOCH/],
    ['SELECT EXTRACT(DOW FROM placed) FROM orders', 'postgres', /date part DOW/],
    ["SELECT date_part('quarter', placed) FROM orders", 'postgres', /date part QUARTER/],
    ['SELECT date_part(unit, placed) FROM orders', 'postgres', /not a constant/],
  ] as const)('refuses %s naming the unit', (sql, d, re) => {
    expect(() => importSql(sql, d, SHOP)).toThrow(
      expect.objectContaining({ code: 'SQL_IMPORT_UNSUPPORTED', message: expect.stringMatching(re) }),
    );
  });
});

describe('importSql: JOIN .. USING', () => {
  it('becomes an ON condition; a bare USING column is the left one everywhere in the select', () => {
    const plan = importSql(
      'SELECT id, o.code FROM orders AS o JOIN salaries AS s USING (id) WHERE id > 1 ORDER BY id DESC',
      'sqlite',
      SHOP,
    );
    expect(plan).toEqual(
      b.query(
        b.select({
          columns: [b.col('id', 'o'), b.col('code', 'o')],
          from: b.join(
            'inner',
            b.table('orders', 'o'),
            b.table('salaries', 's'),
            b.cmp('=', b.col('id', 'o'), b.col('id', 's')),
          ),
          where: b.cmp('>', b.col('id', 'o'), b.lit(1)),
        }),
        { orderBy: [b.order(b.col('id', 'o'), 'desc')] },
      ),
    );
    expect(validatePlan(plan, SHOP, { datasourceId: 'shop' })).toMatchObject({ ok: true });
  });

  it('finds the relation with the column on each side of a join tree; several columns are ANDed', () => {
    const plan = importSql(
      'SELECT c.name FROM customers AS c JOIN orders AS o ON c.id = o.customer_id JOIN salaries USING (amount)',
      'postgres',
      SHOP,
    );
    expect(plan.body).toMatchObject({
      from: { on: b.cmp('=', b.col('amount', 'o'), b.col('amount', 'salaries')) },
    });
    const two = importSql('SELECT amount FROM orders JOIN salaries USING (id, amount)', 'mysql', SHOP);
    expect(two.body).toMatchObject({
      columns: [{ expr: b.col('amount', 'orders') }],
      from: {
        on: b.and(
          b.cmp('=', b.col('id', 'orders'), b.col('id', 'salaries')),
          b.cmp('=', b.col('amount', 'orders'), b.col('amount', 'salaries')),
        ),
      },
    });
  });

  it('a bare USING column of a RIGHT JOIN is the right one; of a FULL JOIN, the first non-NULL', () => {
    const right = importSql('SELECT id FROM orders o RIGHT JOIN salaries s USING (id)', 'postgres', SHOP);
    expect(right.body).toMatchObject({ columns: [{ expr: b.col('id', 's') }], from: { join_type: 'right' } });
    const full = importSql('SELECT id FROM orders o FULL JOIN salaries s USING (id)', 'postgres', SHOP);
    expect(full.body).toMatchObject({
      columns: [{ expr: b.fn('coalesce', b.col('id', 'o'), b.col('id', 's')) }],
    });
  });

  it('a subquery keeps its own names', () => {
    const plan = importSql(
      'SELECT id FROM orders o JOIN salaries s USING (id) WHERE id IN (SELECT id FROM customers)',
      'sqlite',
      SHOP,
    );
    expect(plan.body).toMatchObject({
      where: {
        kind: 'in_query',
        expr: b.col('id', 'o'),
        query: { body: { columns: [{ expr: b.col('id') }] } },
      },
    });
  });

  it.each([
    ['SELECT name FROM customers JOIN orders USING (id)', null, /without the schema/],
    ['SELECT * FROM orders JOIN salaries USING (id)', SHOP, /SELECT \* over JOIN/],
    ['SELECT name FROM customers JOIN orders USING (nope)', SHOP, /USING \(nope\): no left relation/],
    [
      'SELECT c.name FROM customers c JOIN orders o ON c.id = o.customer_id JOIN salaries USING (id)',
      SHOP,
      /USING \(id\): several left relations/,
    ],
  ] as const)('refuses %s, saying why', (sql, schema, re) => {
    expect(() => importSql(sql, 'sqlite', schema)).toThrow(
      expect.objectContaining({ code: 'SQL_IMPORT_UNSUPPORTED', message: expect.stringMatching(re) }),
    );
  });
});
