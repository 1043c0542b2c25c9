/**
 * Golden {sql, params} per dialect for each node kind. The expected strings are the SQL each
 * engine needs for the plan's meaning (quoting, placeholders, division, LIKE, NULL order...).
 */
import { compilePlan, PlanError } from '../../../src/engine/plan';
import * as b from '../../../src/engine/plan/build';
import type { Dialect } from '../../../src/engine/datasources/schema';
import type { Plan } from '../../../src/engine/plan';
import { SHOP } from '../../support/plan-fixtures';

const sel = (
  columns: Parameters<typeof b.select>[0]['columns'],
  rest: Omit<Parameters<typeof b.select>[0], 'columns'> = {},
) => b.query(b.select({ columns, from: b.table('orders'), ...rest }));

function golden(plan: Plan, expected: Record<Dialect, [string, unknown[]]>) {
  for (const d of Object.keys(expected) as Dialect[]) {
    const out = compilePlan(plan, d, { schema: SHOP });
    expect({ d, sql: out.sql, params: out.params }).toEqual({
      d,
      sql: expected[d][0],
      params: expected[d][1],
    });
  }
}

describe('compilePlan golden SQL per dialect', () => {
  it('column, literal, compare', () => {
    golden(sel([b.col('id')], { where: b.cmp('>', b.col('amount'), b.lit(10)) }), {
      sqlite: ['SELECT "id" FROM "orders" WHERE "amount" > CAST(? AS INTEGER)', [10]],
      postgres: ['SELECT "id" FROM "orders" WHERE "amount" > $1::bigint', [10]],
      duckdb: ['SELECT "id" FROM "orders" WHERE "amount" > CAST($1 AS BIGINT)', [10]],
      mysql: ['SELECT `id` FROM `orders` WHERE `amount` > ?', [10]],
    });
  });

  it('a number compared with a text column is compared as text (SQLite affinity)', () => {
    golden(sel([b.col('id')], { where: b.cmp('>', b.col('code'), b.lit(150)) }), {
      sqlite: ['SELECT "id" FROM "orders" WHERE "code" > ?', ['150']],
      postgres: ['SELECT "id" FROM "orders" WHERE "code" > $1::text', ['150']],
      duckdb: ['SELECT "id" FROM "orders" WHERE "code" > CAST($1 AS VARCHAR)', ['150']],
      mysql: ['SELECT `id` FROM `orders` WHERE `code` > ?', ['150']],
    });
  });

  it('integer division, arithmetic, negate, concat', () => {
    const plan = sel([
      b.item(b.arith('/', b.col('id'), b.lit(2)), 'half'),
      b.item(b.negate(b.col('amount')), 'neg'),
      b.item(b.concat(b.col('code'), b.lit('-'), b.col('id')), 'label'),
    ]);
    golden(plan, {
      sqlite: [
        'SELECT "id" / CAST(? AS INTEGER) AS "half", -"amount" AS "neg", "code" || ? || "id" AS "label" FROM "orders"',
        [2, '-'],
      ],
      postgres: [
        'SELECT "id" / $1::bigint AS "half", -"amount" AS "neg", "code" || $2::text || CAST("id" AS TEXT) AS "label" FROM "orders"',
        [2, '-'],
      ],
      duckdb: [
        'SELECT "id" // CAST($1 AS BIGINT) AS "half", -"amount" AS "neg", "code" || CAST($2 AS VARCHAR) || "id" AS "label" FROM "orders"',
        [2, '-'],
      ],
      mysql: [
        'SELECT `id` DIV ? AS `half`, -`amount` AS `neg`, CONCAT(`code`, ?, `id`) AS `label` FROM `orders`',
        [2, '-'],
      ],
    });
  });

  it('and / or / not / in list / between / is null / like', () => {
    const plan = sel([b.col('id')], {
      where: b.and(
        b.or(b.inList(b.col('customer_id'), [b.lit(1), b.lit(2)]), b.not(b.isNull(b.col('amount')))),
        b.between(b.col('amount'), b.lit(1), b.lit(5), true),
        b.like(b.col('code'), b.lit('1%')),
      ),
    });
    golden(plan, {
      sqlite: [
        'SELECT "id" FROM "orders" WHERE (("customer_id" IN (CAST(? AS INTEGER), CAST(? AS INTEGER))) OR (NOT ("amount" IS NULL))) AND ("amount" NOT BETWEEN CAST(? AS INTEGER) AND CAST(? AS INTEGER)) AND ("code" LIKE ?)',
        [1, 2, 1, 5, '1%'],
      ],
      postgres: [
        'SELECT "id" FROM "orders" WHERE (("customer_id" IN ($1::bigint, $2::bigint)) OR (NOT ("amount" IS NULL))) AND ("amount" NOT BETWEEN $3::bigint AND $4::bigint) AND ("code" ILIKE $5::text)',
        [1, 2, 1, 5, '1%'],
      ],
      duckdb: [
        'SELECT "id" FROM "orders" WHERE (("customer_id" IN (CAST($1 AS BIGINT), CAST($2 AS BIGINT))) OR (NOT ("amount" IS NULL))) AND ("amount" NOT BETWEEN CAST($3 AS BIGINT) AND CAST($4 AS BIGINT)) AND ("code" ILIKE CAST($5 AS VARCHAR))',
        [1, 2, 1, 5, '1%'],
      ],
      mysql: [
        'SELECT `id` FROM `orders` WHERE ((`customer_id` IN (?, ?)) OR (NOT (`amount` IS NULL))) AND (`amount` NOT BETWEEN ? AND ?) AND (LOWER(`code`) LIKE LOWER(?))',
        [1, 2, 1, 5, '1%'],
      ],
    });
  });

  it('case-sensitive LIKE: GLOB on SQLite, LIKE BINARY on MySQL', () => {
    const plan = sel([b.col('id')], { where: b.like(b.col('code'), b.lit('1_%'), false, false) });
    expect(compilePlan(plan, 'sqlite', { schema: SHOP }).sql).toBe(
      'SELECT "id" FROM "orders" WHERE "code" GLOB ?',
    );
    expect(compilePlan(plan, 'sqlite', { schema: SHOP }).params).toEqual(['1?*']);
    expect(compilePlan(plan, 'postgres', { schema: SHOP }).sql).toBe(
      'SELECT "id" FROM "orders" WHERE "code" LIKE $1::text',
    );
    expect(compilePlan(plan, 'mysql', { schema: SHOP }).sql).toBe(
      'SELECT `id` FROM `orders` WHERE `code` LIKE BINARY ?',
    );
  });

  it('aggregates, GROUP BY, HAVING, ORDER BY with NULL placement (group key as tie-breaker), LIMIT/OFFSET', () => {
    const plan = b.query(
      b.select({
        columns: [
          b.col('customer_id'),
          b.item(b.agg('avg', b.col('amount')), 'avg'),
          b.item(b.agg('count', b.col('code'), true), 'n'),
        ],
        from: b.table('orders'),
        groupBy: [b.col('customer_id')],
        having: b.cmp('>', b.countStar(), b.lit(1)),
      }),
      { orderBy: [b.order(b.col('avg'), 'asc')], limit: 5, offset: 2 },
    );
    golden(plan, {
      sqlite: [
        'SELECT "customer_id", AVG("amount") AS "avg", COUNT(DISTINCT "code") AS "n" FROM "orders" GROUP BY "customer_id" HAVING COUNT(*) > CAST(? AS INTEGER) ORDER BY "avg" ASC, "customer_id" ASC LIMIT 5 OFFSET 2',
        [1],
      ],
      postgres: [
        'SELECT "customer_id", CAST(AVG("amount") AS DOUBLE PRECISION) AS "avg", COUNT(DISTINCT "code") AS "n" FROM "orders" GROUP BY "customer_id" HAVING COUNT(*) > $1::bigint ORDER BY "avg" ASC NULLS FIRST, "customer_id" ASC NULLS FIRST LIMIT 5 OFFSET 2',
        [1],
      ],
      duckdb: [
        'SELECT "customer_id", AVG("amount") AS "avg", COUNT(DISTINCT "code") AS "n" FROM "orders" GROUP BY "customer_id" HAVING COUNT(*) > CAST($1 AS BIGINT) ORDER BY "avg" ASC NULLS FIRST, "customer_id" ASC NULLS FIRST LIMIT 5 OFFSET 2',
        [1],
      ],
      mysql: [
        'SELECT `customer_id`, AVG(CAST(`amount` AS DOUBLE)) AS `avg`, COUNT(DISTINCT `code`) AS `n` FROM `orders` GROUP BY `customer_id` HAVING COUNT(*) > ? ORDER BY `avg` ASC, `customer_id` ASC LIMIT 5 OFFSET 2',
        [1],
      ],
    });
  });

  it('joins of every kind; FULL JOIN is a typed unsupported error on MySQL', () => {
    const join = (t: 'inner' | 'left' | 'right' | 'full') =>
      b.query(
        b.select({
          columns: [b.col('name', 'c'), b.col('id', 'o')],
          from: b.join(
            t,
            b.table('customers', 'c'),
            b.table('orders', 'o'),
            b.cmp('=', b.col('id', 'c'), b.col('customer_id', 'o')),
          ),
        }),
      );
    expect(compilePlan(join('left'), 'postgres', { schema: SHOP }).sql).toBe(
      'SELECT "c"."name", "o"."id" FROM "customers" AS "c" LEFT JOIN "orders" AS "o" ON "c"."id" = "o"."customer_id"',
    );
    expect(compilePlan(join('inner'), 'mysql', { schema: SHOP }).sql).toBe(
      'SELECT `c`.`name`, `o`.`id` FROM `customers` AS `c` JOIN `orders` AS `o` ON `c`.`id` = `o`.`customer_id`',
    );
    expect(compilePlan(join('right'), 'sqlite', { schema: SHOP }).sql).toContain(
      'RIGHT JOIN "orders" AS "o"',
    );
    expect(compilePlan(join('full'), 'duckdb', { schema: SHOP }).sql).toContain('FULL JOIN "orders" AS "o"');
    expect(() => compilePlan(join('full'), 'mysql', { schema: SHOP })).toThrow(
      expect.objectContaining({ code: 'PLAN_UNSUPPORTED' }),
    );
    const cross = b.query(
      b.select({ columns: [b.star()], from: b.join('cross', b.table('customers'), b.table('salaries')) }),
    );
    expect(compilePlan(cross, 'sqlite').sql).toBe('SELECT * FROM "customers" CROSS JOIN "salaries"');
  });

  it('subqueries: IN, EXISTS, scalar, derived table, CTE', () => {
    const big = b.query(
      b.select({
        columns: [b.col('customer_id')],
        from: b.table('orders'),
        where: b.cmp('>', b.col('amount'), b.lit(9.5)),
      }),
    );
    const plan = b.query(
      b.select({
        columns: [
          b.col('name'),
          b.item(
            b.subquery(
              b.query(b.select({ columns: [b.agg('max', b.col('amount'))], from: b.table('big_orders') })),
            ),
            'top',
          ),
        ],
        from: b.derived(b.query(b.select({ columns: [b.star()], from: b.table('customers') })), 'c'),
        where: b.and(b.inQuery(b.col('id'), big), b.exists(big, true)),
      }),
      { with: [b.cte('big_orders', b.query(b.select({ columns: [b.star()], from: b.table('orders') })))] },
    );
    expect(compilePlan(plan, 'postgres', { schema: SHOP })).toMatchObject({
      sql:
        'WITH "big_orders" AS (SELECT * FROM "orders") SELECT "name", (SELECT MAX("amount") FROM "big_orders") AS "top" FROM (SELECT * FROM "customers") AS "c" ' +
        'WHERE ("id" IN (SELECT "customer_id" FROM "orders" WHERE "amount" > $1::double precision)) AND (NOT EXISTS (SELECT "customer_id" FROM "orders" WHERE "amount" > $2::double precision))',
      params: [9.5, 9.5],
    });
  });

  it('set operations: parentheses where the engine has precedence, SELECT * FROM (...) on SQLite', () => {
    const a = b.select({ columns: [b.col('id')], from: b.table('customers') });
    const c = b.select({ columns: [b.col('customer_id')], from: b.table('orders') });
    const plan = b.query(b.setOp('union', a, b.setOp('intersect', c, a)), {
      orderBy: [b.order(b.col('id'), 'desc')],
    });
    expect(compilePlan(plan, 'sqlite', { schema: SHOP }).sql).toBe(
      'SELECT "id" FROM "customers" UNION SELECT * FROM (SELECT "customer_id" FROM "orders" INTERSECT SELECT "id" FROM "customers") ORDER BY "id" DESC',
    );
    expect(compilePlan(plan, 'postgres', { schema: SHOP }).sql).toBe(
      'SELECT "id" FROM "customers" UNION (SELECT "customer_id" FROM "orders" INTERSECT SELECT "id" FROM "customers") ORDER BY "id" DESC NULLS LAST',
    );
    expect(compilePlan(b.query(b.setOp('except', a, c, true)), 'mysql', { schema: SHOP }).sql).toBe(
      'SELECT `id` FROM `customers` EXCEPT ALL SELECT `customer_id` FROM `orders`',
    );
    expect(() => compilePlan(b.query(b.setOp('except', a, c, true)), 'sqlite')).toThrow(PlanError);
  });

  it('CASE, CAST, functions and date parts', () => {
    const plan = sel([
      b.item(
        b.caseWhen(
          null,
          [{ when: b.cmp('>', b.col('amount'), b.lit(10)), then: b.lit('big') }],
          b.lit('small'),
        ),
        'size',
      ),
      b.item(b.cast(b.col('code'), 'integer'), 'code_n'),
      b.item(b.fn('upper', b.col('code')), 'up'),
      b.item(b.fn('year', b.col('placed')), 'y'),
    ]);
    golden(plan, {
      sqlite: [
        `SELECT CASE WHEN "amount" > CAST(? AS INTEGER) THEN ? ELSE ? END AS "size", CAST("code" AS INTEGER) AS "code_n", UPPER("code") AS "up", CAST(STRFTIME('%Y', "placed") AS INTEGER) AS "y" FROM "orders"`,
        [10, 'big', 'small'],
      ],
      postgres: [
        'SELECT CASE WHEN "amount" > $1::bigint THEN $2::text ELSE $3::text END AS "size", CAST("code" AS BIGINT) AS "code_n", UPPER("code") AS "up", CAST(EXTRACT(YEAR FROM CAST("placed" AS TIMESTAMP)) AS BIGINT) AS "y" FROM "orders"',
        [10, 'big', 'small'],
      ],
      duckdb: [
        'SELECT CASE WHEN "amount" > CAST($1 AS BIGINT) THEN CAST($2 AS VARCHAR) ELSE CAST($3 AS VARCHAR) END AS "size", CAST("code" AS BIGINT) AS "code_n", UPPER("code") AS "up", CAST(EXTRACT(YEAR FROM CAST("placed" AS TIMESTAMP)) AS BIGINT) AS "y" FROM "orders"',
        [10, 'big', 'small'],
      ],
      mysql: [
        'SELECT CASE WHEN `amount` > ? THEN ? ELSE ? END AS `size`, CAST(`code` AS SIGNED) AS `code_n`, UPPER(`code`) AS `up`, YEAR(`placed`) AS `y` FROM `orders`',
        [10, 'big', 'small'],
      ],
    });
  });

  it('window functions with partition, order and frame', () => {
    const plan = sel([
      b.item(
        b.windowFn('rank', [], {
          partitionBy: [b.col('customer_id')],
          orderBy: [b.order(b.col('amount'), 'desc')],
        }),
        'r',
      ),
      b.item(
        b.windowFn('sum', [b.col('amount')], {
          orderBy: [b.order(b.col('id'))],
          frame: {
            unit: 'rows',
            start: { bound: 'preceding', offset: 1 },
            end: { bound: 'current_row', offset: null },
          },
        }),
        's',
      ),
    ]);
    expect(compilePlan(plan, 'sqlite', { schema: SHOP }).sql).toBe(
      'SELECT RANK() OVER (PARTITION BY "customer_id" ORDER BY "amount" DESC) AS "r", SUM("amount") OVER (ORDER BY "id" ASC ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS "s" FROM "orders"',
    );
    expect(compilePlan(plan, 'postgres', { schema: SHOP }).sql).toBe(
      'SELECT RANK() OVER (PARTITION BY "customer_id" ORDER BY "amount" DESC NULLS LAST) AS "r", SUM("amount") OVER (ORDER BY "id" ASC NULLS FIRST ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS "s" FROM "orders"',
    );
  });

  it('a bare column beside one MAX takes the row of the max on every engine', () => {
    const plan = b.query(
      b.select({ columns: [b.col('code'), b.agg('max', b.col('amount'))], from: b.table('orders') }),
    );
    expect(compilePlan(plan, 'sqlite', { schema: SHOP }).sql).toBe(
      'SELECT "code", MAX("amount") FROM "orders"',
    );
    expect(compilePlan(plan, 'duckdb', { schema: SHOP }).sql).toBe(
      'SELECT ARG_MAX_NULL("code", "amount"), MAX("amount") FROM "orders"',
    );
    expect(compilePlan(plan, 'postgres', { schema: SHOP }).sql).toBe(
      'SELECT (ARRAY_AGG("code" ORDER BY "amount" DESC) FILTER (WHERE "amount" IS NOT NULL))[1], MAX("amount") FROM "orders"',
    );
  });

  it('row cap: bounds to cap + 1 rows and reports whether the plan LIMIT was smaller', () => {
    const open = sel([b.col('id')]);
    expect(compilePlan(open, 'postgres', { rowCap: 100 })).toMatchObject({
      sql: 'SELECT "id" FROM "orders" LIMIT 101',
      rowCapApplied: 100,
    });
    const small = b.query(open.body, { limit: 5 });
    expect(compilePlan(small, 'mysql', { rowCap: 100 })).toMatchObject({
      sql: 'SELECT `id` FROM `orders` LIMIT 5',
      rowCapApplied: null,
    });
    const large = b.query(open.body, { limit: 5000, offset: 10 });
    expect(compilePlan(large, 'sqlite', { rowCap: 100 })).toMatchObject({
      sql: 'SELECT "id" FROM "orders" LIMIT 101 OFFSET 10',
      rowCapApplied: 100,
    });
  });

  it('display SQL inlines values as escaped literals', () => {
    const plan = sel([b.col('id')], { where: b.cmp('=', b.col('code'), b.lit("it's \\ odd")) });
    expect(compilePlan(plan, 'postgres', { schema: SHOP }).displaySql).toBe(
      `SELECT "id" FROM "orders" WHERE "code" = 'it''s \\ odd'`,
    );
    expect(compilePlan(plan, 'mysql', { schema: SHOP }).displaySql).toBe(
      "SELECT `id` FROM `orders` WHERE `code` = 'it''s \\\\ odd'",
    );
  });

  it('named params are bound from options; a missing one is a typed error', () => {
    const plan = sel([b.col('id')], { where: b.cmp('=', b.col('customer_id'), b.param('who')) });
    expect(compilePlan(plan, 'postgres', { schema: SHOP, params: { who: 3 } })).toMatchObject({
      params: [3],
    });
    expect(() => compilePlan(plan, 'postgres', { schema: SHOP })).toThrow(
      expect.objectContaining({ code: 'PLAN_PARAM_MISSING' }),
    );
  });

  it('canonical spelling comes from the schema', () => {
    const plan = b.query(b.select({ columns: [b.col('NAME', 'C')], from: b.table('CUSTOMERS', 'c') }));
    expect(compilePlan(plan, 'postgres', { schema: SHOP }).sql).toBe(
      'SELECT "c"."name" FROM "customers" AS "c"',
    );
  });
});
