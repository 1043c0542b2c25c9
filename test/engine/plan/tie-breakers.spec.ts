/**
 * Golden SQL for the tie-breakers the compiler appends to ORDER BY (compiler/order.ts), per
 * dialect: the keys SQLite's own order among ties follows, only keys each dialect accepts there,
 * and nothing added where the ORDER BY already decides the order.
 */
import { compilePlan, type Plan } from '../../../src/engine/plan';
import * as b from '../../../src/engine/plan/build';
import type { Dialect } from '../../../src/engine/datasources/schema';
import { SHOP } from '../../support/plan-fixtures';

const DIALECTS: Dialect[] = ['sqlite', 'duckdb', 'postgres', 'mysql'];

function sqlOf(plan: Plan): Record<Dialect, string> {
  return Object.fromEntries(DIALECTS.map((d) => [d, compilePlan(plan, d, { schema: SHOP }).sql])) as Record<
    Dialect,
    string
  >;
}

const orders = (parts: Omit<Parameters<typeof b.select>[0], 'from'>) =>
  b.select({ from: b.table('orders'), ...parts });

describe('ORDER BY tie-breakers per dialect', () => {
  it('a plain select from one table: its primary key, ascending, after the ORDER BY', () => {
    const plan = b.query(orders({ columns: [b.col('code')] }), {
      orderBy: [b.order(b.col('amount'), 'desc')],
      limit: 2,
    });
    expect(sqlOf(plan)).toEqual({
      sqlite: 'SELECT "code" FROM "orders" ORDER BY "amount" DESC, "orders"."id" ASC LIMIT 2',
      duckdb: 'SELECT "code" FROM "orders" ORDER BY "amount" DESC, "orders"."id" ASC NULLS FIRST LIMIT 2',
      postgres:
        'SELECT "code" FROM "orders" ORDER BY "amount" DESC NULLS LAST, "orders"."id" ASC NULLS FIRST LIMIT 2',
      mysql: 'SELECT `code` FROM `orders` ORDER BY `amount` DESC, `orders`.`id` ASC LIMIT 2',
    });
  });

  it('a join: the primary key of each table, left to right', () => {
    const plan = b.query(
      b.select({
        columns: [b.col('name', 'c')],
        from: b.join(
          'inner',
          b.table('customers', 'c'),
          b.table('orders', 'o'),
          b.cmp('=', b.col('id', 'c'), b.col('customer_id', 'o')),
        ),
      }),
      { orderBy: [b.order(b.col('amount', 'o'))] },
    );
    expect(sqlOf(plan).sqlite).toBe(
      'SELECT "c"."name" FROM "customers" AS "c" JOIN "orders" AS "o" ON "c"."id" = "o"."customer_id" ORDER BY "o"."amount" ASC, "c"."id" ASC, "o"."id" ASC',
    );
    expect(sqlOf(plan).mysql).toBe(
      'SELECT `c`.`name` FROM `customers` AS `c` JOIN `orders` AS `o` ON `c`.`id` = `o`.`customer_id` ORDER BY `o`.`amount` ASC, `c`.`id` ASC, `o`.`id` ASC',
    );
  });

  it('after GROUP BY with as many ORDER BY terms: the group key in the direction of the term beside it', () => {
    const plan = b.query(orders({ columns: [b.col('customer_id')], groupBy: [b.col('customer_id')] }), {
      orderBy: [b.order(b.countStar(), 'desc')],
      limit: 1,
    });
    expect(sqlOf(plan)).toEqual({
      sqlite:
        'SELECT "customer_id" FROM "orders" GROUP BY "customer_id" ORDER BY COUNT(*) DESC, "customer_id" DESC LIMIT 1',
      duckdb:
        'SELECT "customer_id" FROM "orders" GROUP BY "customer_id" ORDER BY COUNT(*) DESC, "customer_id" DESC LIMIT 1',
      postgres:
        'SELECT "customer_id" FROM "orders" GROUP BY "customer_id" ORDER BY COUNT(*) DESC NULLS LAST, "customer_id" DESC NULLS LAST LIMIT 1',
      mysql:
        'SELECT `customer_id` FROM `orders` GROUP BY `customer_id` ORDER BY COUNT(*) DESC, `customer_id` DESC LIMIT 1',
    });
  });

  it('after GROUP BY with a different number of terms: the group keys ascending', () => {
    const plan = b.query(
      orders({
        columns: [b.col('customer_id'), b.col('code')],
        groupBy: [b.col('customer_id'), b.col('code')],
      }),
      { orderBy: [b.order(b.countStar(), 'desc')] },
    );
    expect(sqlOf(plan).sqlite).toBe(
      'SELECT "customer_id", "code" FROM "orders" GROUP BY "customer_id", "code" ORDER BY COUNT(*) DESC, "customer_id" ASC, "code" ASC',
    );
  });

  it('after GROUP BY on a primary key (SQLite reads those groups from the key index): ascending', () => {
    const plan = b.query(
      b.select({
        columns: [b.col('id', 'c')],
        from: b.join(
          'inner',
          b.table('customers', 'c'),
          b.table('orders', 'o'),
          b.cmp('=', b.col('id', 'c'), b.col('customer_id', 'o')),
        ),
        groupBy: [b.col('id', 'c')],
      }),
      { orderBy: [b.order(b.countStar(), 'desc')], limit: 1 },
    );
    expect(sqlOf(plan).postgres).toBe(
      'SELECT "c"."id" FROM "customers" AS "c" JOIN "orders" AS "o" ON "c"."id" = "o"."customer_id" GROUP BY "c"."id" ORDER BY COUNT(*) DESC NULLS LAST, "c"."id" ASC NULLS FIRST LIMIT 1',
    );
  });

  it('adds nothing where the ORDER BY already decides the order', () => {
    const byKey = b.query(orders({ columns: [b.col('code')] }), {
      orderBy: [b.order(b.col('amount')), b.order(b.col('id', 'orders'), 'desc')],
    });
    expect(sqlOf(byKey).sqlite).toBe('SELECT "code" FROM "orders" ORDER BY "amount" ASC, "orders"."id" DESC');
    const byGroup = b.query(orders({ columns: [b.col('code')], groupBy: [b.col('code')] }), {
      orderBy: [b.order(b.col('code'), 'desc')],
    });
    expect(sqlOf(byGroup).mysql).toBe('SELECT `code` FROM `orders` GROUP BY `code` ORDER BY `code` DESC');
    const oneRow = b.query(orders({ columns: [b.item(b.countStar(), 'n')] }), {
      orderBy: [b.order(b.col('n'))],
    });
    expect(sqlOf(oneRow).sqlite).toBe('SELECT COUNT(*) AS "n" FROM "orders" ORDER BY "n" ASC');
  });

  it('an ORDER BY on an output alias counts as that column', () => {
    const plan = b.query(orders({ distinct: true, columns: [b.item(b.col('code'), 'c')] }), {
      orderBy: [b.order(b.col('c'), 'desc')],
    });
    expect(sqlOf(plan).sqlite).toBe('SELECT DISTINCT "code" AS "c" FROM "orders" ORDER BY "c" DESC');
  });

  it('DISTINCT: only the selected columns (PostgreSQL accepts nothing else there)', () => {
    const plan = b.query(
      orders({ distinct: true, columns: [b.col('customer_id'), b.item(b.col('code'), 'c')] }),
      { orderBy: [b.order(b.col('customer_id'))] },
    );
    expect(sqlOf(plan).postgres).toBe(
      'SELECT DISTINCT "customer_id", "code" AS "c" FROM "orders" ORDER BY "customer_id" ASC NULLS FIRST, "c" ASC NULLS FIRST',
    );
  });

  it('DISTINCT ordered by a column it does not select: GROUP BY, each group at its first row', () => {
    const plan = (direction: 'asc' | 'desc', nulls: 'first' | 'last' | null = null) =>
      b.query(orders({ distinct: true, columns: [b.col('customer_id')] }), {
        orderBy: [b.order(b.col('amount'), direction, nulls)],
        limit: 2,
      });
    expect(sqlOf(plan('desc'))).toEqual({
      sqlite:
        'SELECT "customer_id" FROM "orders" GROUP BY "customer_id" ORDER BY MAX("amount") DESC, "customer_id" DESC LIMIT 2',
      duckdb:
        'SELECT "customer_id" FROM "orders" GROUP BY "customer_id" ORDER BY MAX("amount") DESC, "customer_id" DESC LIMIT 2',
      postgres:
        'SELECT "customer_id" FROM "orders" GROUP BY "customer_id" ORDER BY MAX("amount") DESC NULLS LAST, "customer_id" DESC NULLS LAST LIMIT 2',
      mysql:
        'SELECT `customer_id` FROM `orders` GROUP BY `customer_id` ORDER BY MAX(`amount`) DESC, `customer_id` DESC LIMIT 2',
    });
    // Ascending, NULLs first (the default): a group with a NULL sorts first.
    expect(sqlOf(plan('asc')).postgres).toBe(
      'SELECT "customer_id" FROM "orders" GROUP BY "customer_id" ORDER BY CASE WHEN COUNT(*) > COUNT("amount") THEN NULL ELSE MIN("amount") END ASC NULLS FIRST, "customer_id" ASC NULLS FIRST LIMIT 2',
    );
    expect(sqlOf(plan('asc', 'last')).sqlite).toBe(
      'SELECT "customer_id" FROM "orders" GROUP BY "customer_id" ORDER BY MIN("amount") ASC NULLS LAST, "customer_id" ASC LIMIT 2',
    );
  });

  it('set operations: the output columns by name, ascending (as SQLite extends a compound ORDER BY)', () => {
    const plan = b.query(
      b.setOp(
        'union',
        b.select({ columns: [b.col('name'), b.col('country')], from: b.table('customers') }),
        b.select({ columns: [b.col('code'), b.col('placed')], from: b.table('orders') }),
      ),
      { orderBy: [b.order(b.col('country'), 'desc')], limit: 3 },
    );
    expect(sqlOf(plan).sqlite).toBe(
      'SELECT "name", "country" FROM "customers" UNION SELECT "code", "placed" FROM "orders" ORDER BY "country" DESC, "name" ASC LIMIT 3',
    );
    expect(sqlOf(plan).postgres).toBe(
      'SELECT "name", "country" FROM "customers" UNION SELECT "code", "placed" FROM "orders" ORDER BY "country" DESC NULLS LAST, "name" ASC NULLS FIRST LIMIT 3',
    );
  });

  it('set operations never name an unaliased expression (engines name it differently)', () => {
    const plan = b.query(
      b.setOp(
        'union',
        b.select({ columns: [b.col('name'), b.fn('upper', b.col('country'))], from: b.table('customers') }),
        b.select({ columns: [b.col('code'), b.col('placed')], from: b.table('orders') }),
      ),
      { orderBy: [b.order(b.col('name'))] },
    );
    expect(sqlOf(plan).sqlite).toBe(
      'SELECT "name", UPPER("country") FROM "customers" UNION SELECT "code", "placed" FROM "orders" ORDER BY "name" ASC',
    );
  });

  it('a derived table has no key: its output columns', () => {
    const inner = b.query(
      b.select({ columns: [b.col('customer_id'), b.col('amount')], from: b.table('orders') }),
    );
    const plan = b.query(b.select({ columns: [b.col('customer_id', 'd')], from: b.derived(inner, 'd') }), {
      orderBy: [b.order(b.col('amount', 'd'))],
      limit: 1,
    });
    expect(sqlOf(plan).mysql).toBe(
      'SELECT `d`.`customer_id` FROM (SELECT `customer_id`, `amount` FROM `orders`) AS `d` ORDER BY `d`.`amount` ASC, `d`.`customer_id` ASC LIMIT 1',
    );
  });

  it('a subquery ordered with LIMIT gets its tie-breakers too', () => {
    const top = b.query(orders({ columns: [b.col('customer_id')] }), {
      orderBy: [b.order(b.col('amount'), 'desc')],
      limit: 1,
    });
    const plan = b.query(
      b.select({ columns: [b.col('name')], from: b.table('customers'), where: b.inQuery(b.col('id'), top) }),
    );
    expect(sqlOf(plan).sqlite).toBe(
      'SELECT "name" FROM "customers" WHERE "id" IN (SELECT "customer_id" FROM "orders" ORDER BY "amount" DESC, "orders"."id" ASC LIMIT 1)',
    );
  });
});
