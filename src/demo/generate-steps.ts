/**
 * The demo generator as an ordered list of SQL steps run inside DuckDB. Every value comes from
 * `hash(key, salt)` of a row key, never from `random()`, so two builds hold the same data; the
 * salt names what is being drawn, so that two draws on the same row are independent. Large tables
 * are made set-wise from `range()`: nothing is generated row by row in JavaScript.
 *
 * Staging happens in TEMP tables (no constraints, not saved in the file); the published tables
 * are then filled parents first, because DuckDB checks each foreign key on insert.
 */
import {
  BUILD_INFO_TABLE,
  DEMO_COLUMN_COMMENTS,
  DEMO_DDL,
  DEMO_TABLE_COMMENTS,
  DEMO_TABLES,
} from './demo-schema';
import type { DemoSizes } from './demo-sizes';
import {
  CATEGORIES,
  COUNTRIES,
  EMAIL_DOMAINS,
  FIRST_ORDER_DATE,
  LAST_ORDER_DATE,
  NAME_POOLS,
  PRODUCT_SERIES,
  REGIONS,
  RETURN_REASONS,
  STORE_SUFFIXES,
} from './reference-data';
import { sqlList, sqlRows, sqlString, weightedList } from './sql-literal';

export interface BuildStep {
  readonly name: string;
  readonly statements: readonly string[];
}

const ONLINE_STORE_ID = 1;
const EMPLOYEE_EMAIL_DOMAIN = 'larkspur-retail.example';

export function generateSteps(sizes: DemoSizes): BuildStep[] {
  return [
    { name: 'helpers', statements: helperMacros() },
    { name: 'reference', statements: referenceTables() },
    { name: 'schema', statements: DEMO_TABLES.map((t) => DEMO_DDL[t]) },
    { name: 'geography', statements: geography() },
    { name: 'stores', statements: stores() },
    { name: 'products', statements: products(sizes.products) },
    { name: 'employees', statements: employees() },
    { name: 'customers_stage', statements: customersStage(sizes.customers) },
    { name: 'orders_stage', statements: ordersStage(sizes.orders, sizes.customers) },
    { name: 'order_items_stage', statements: orderItemsStage(sizes.products) },
    { name: 'customers', statements: customersInsert() },
    { name: 'orders', statements: ordersInsert() },
    {
      name: 'order_items',
      statements: ['INSERT INTO order_items SELECT * FROM stg_items ORDER BY order_item_id'],
    },
    { name: 'payments', statements: paymentsInsert() },
    { name: 'returns', statements: returnsInsert() },
    { name: 'comments', statements: comments() },
  ];
}

/** The marker written last: a file without it (or with another version) is not a finished demo. */
export function buildInfoStatements(info: Readonly<Record<string, string>>): string[] {
  return [
    `CREATE SCHEMA ${BUILD_INFO_TABLE.split('.')[0]}`,
    `CREATE TABLE ${BUILD_INFO_TABLE} (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)`,
    `INSERT INTO ${BUILD_INFO_TABLE} VALUES ${sqlRows(Object.entries(info))}`,
  ];
}

function helperMacros(): string[] {
  return [
    // A uniform number in [0, 1) drawn for row key k.
    `CREATE OR REPLACE TEMP MACRO u01(k, salt) AS (hash(k, salt) % 1000003)::DOUBLE / 1000003.0`,
    // An integer in [0, n).
    `CREATE OR REPLACE TEMP MACRO below(k, salt, n) AS (hash(k, salt) % (n)::UBIGINT)::BIGINT`,
    // One element of a list; a list with repeated elements makes a weighted choice.
    `CREATE OR REPLACE TEMP MACRO pick(lst, k, salt) AS lst[1 + below(k, salt, len(lst))]`,
    `CREATE OR REPLACE TEMP MACRO email_part(s) AS lower(strip_accents(replace(replace(s, ' ', ''), '''', '')))`,
  ];
}

function referenceTables(): string[] {
  const hqCountry = (regionId: number) => COUNTRIES.find((c) => c.regionId === regionId)?.code ?? 'US';
  return [
    `CREATE TEMP TABLE ref_regions AS SELECT * FROM (VALUES ${sqlRows(
      REGIONS.map((r) => [r.id, r.name, hqCountry(r.id)]),
    )}) v(region_id, region_name, hq_country)`,
    `CREATE TEMP TABLE ref_countries AS SELECT * FROM (VALUES ${sqlRows(
      COUNTRIES.map((c) => [c.code, c.name, c.regionId, c.currency, c.dialCode, c.locale, c.payLevel]),
    )}) v(country_code, country_name, region_id, currency_code, dial_code, locale, pay_level)`,
    `CREATE TEMP TABLE ref_city_pick AS SELECT * FROM (VALUES ${COUNTRIES.map(
      (c) => `(${sqlString(c.code)}, ${sqlList(weightedList(c.cities))})`,
    ).join(', ')}) v(country_code, cities)`,
    `CREATE TEMP TABLE ref_names AS SELECT * FROM (VALUES ${Object.entries(NAME_POOLS)
      .map(([locale, pool]) => `(${sqlString(locale)}, ${sqlList(pool.first)}, ${sqlList(pool.last)})`)
      .join(', ')}) v(locale, first_names, last_names)`,
    `CREATE TEMP TABLE ref_categories AS SELECT * FROM (VALUES ${CATEGORIES.map(
      (c) =>
        `(${c.id}, ${sqlString(c.name)}, ${sqlString(c.department)}, ${c.minPrice}, ${c.maxPrice}, ${c.returnRate}, ${sqlList(
          c.brands,
        )}, ${sqlList(c.nouns)})`,
    ).join(
      ', ',
    )}) v(category_id, category_name, department, min_price, max_price, return_rate, brands, nouns)`,
  ];
}

function geography(): string[] {
  return [
    'INSERT INTO regions SELECT region_id, region_name FROM ref_regions ORDER BY region_id',
    'INSERT INTO countries SELECT country_code, country_name, region_id, currency_code FROM ref_countries ORDER BY country_code',
    'INSERT INTO categories SELECT category_id, category_name, department FROM ref_categories ORDER BY category_id',
  ];
}

/** One store per city with some weight, two in the big cities; the first of a country is its flagship. */
function storeRows(): (string | number | null)[][] {
  const rows: (string | number | null)[][] = [[ONLINE_STORE_ID, 'Online Store', 'online', null, null]];
  let suffixTurn = 0;
  for (const country of COUNTRIES) {
    country.cities.forEach(([city, weight], cityIndex) => {
      const count = weight >= 5 ? 2 : weight >= 2 ? 1 : 0;
      for (let k = 0; k < count; k += 1) {
        const flagship = cityIndex === 0 && k === 0;
        const suffix = flagship ? 'Flagship' : STORE_SUFFIXES[suffixTurn++ % STORE_SUFFIXES.length]!;
        const type = flagship
          ? 'flagship'
          : suffix === 'Mall'
            ? 'mall'
            : suffix === 'Outlet'
              ? 'outlet'
              : 'street';
        rows.push([rows.length + 1, `${city} ${suffix}`, type, city, country.code]);
      }
    });
  }
  return rows;
}

function stores(): string[] {
  return [
    `CREATE TEMP TABLE stg_stores AS
     SELECT store_id::INTEGER AS store_id, store_name, store_type, city, country_code,
       CASE WHEN store_type = 'online' THEN DATE '2015-03-01'
            ELSE DATE '2008-01-01' + below(store_id, 'store.opened', 13 * 365)::INTEGER END AS opened_on,
       (CASE store_type WHEN 'online' THEN NULL
            WHEN 'flagship' THEN 2500 + below(store_id, 'store.area', 150) * 10
            WHEN 'mall' THEN 900 + below(store_id, 'store.area', 90) * 10
            WHEN 'outlet' THEN 1200 + below(store_id, 'store.area', 100) * 10
            ELSE 500 + below(store_id, 'store.area', 80) * 10 END)::INTEGER AS floor_area_sqm
     FROM (VALUES ${sqlRows(storeRows())}) v(store_id, store_name, store_type, city, country_code)`,
    'INSERT INTO stores SELECT * FROM stg_stores ORDER BY store_id',
    `CREATE TEMP TABLE stg_country_stores AS
     SELECT country_code, list(store_id ORDER BY store_id) AS store_ids
     FROM stg_stores WHERE store_type <> 'online' GROUP BY country_code`,
  ];
}

function products(count: number): string[] {
  const categoryPick = weightedList(CATEGORIES.map((c) => [c.id, c.assortment] as const));
  const series = sqlList(PRODUCT_SERIES);
  const nSeries = PRODUCT_SERIES.length;
  return [
    `CREATE TEMP TABLE stg_products AS
     WITH base AS (
       SELECT i::INTEGER AS product_id, pick(${sqlList(categoryPick)}, i, 'prod.category')::INTEGER AS category_id
       FROM range(1, ${count + 1}) t(i)
     ), ranked AS (
       SELECT *, row_number() OVER (PARTITION BY category_id ORDER BY product_id) - 1 AS j FROM base
     ), combos AS (
       -- j -> (j * 7) mod M walks every brand/series/noun combination once before repeating
       SELECT r.product_id, r.category_id, r.j, c.department, c.min_price, c.max_price, c.brands, c.nouns,
         len(c.brands) * ${nSeries} * len(c.nouns) AS m, (r.j * 7) % (len(c.brands) * ${nSeries} * len(c.nouns)) AS combo
       FROM ranked r JOIN ref_categories c USING (category_id)
     ), priced AS (
       SELECT *,
         greatest(min_price - 0.01, round(min_price * pow(max_price / min_price, pow(u01(product_id, 'prod.price'), 1.4))) - 0.01)
           AS list_price
       FROM combos
     )
     SELECT product_id,
       printf('%s-%06d', upper(left(replace(department, ' ', ''), 3)), product_id) AS sku,
       brands[1 + combo % len(brands)] || ' ' || ${series}[1 + (combo // len(brands)) % ${nSeries}] || ' '
         || nouns[1 + combo // (len(brands) * ${nSeries})]
         || CASE WHEN j >= m THEN ' ' || (j // m + 1)::VARCHAR ELSE '' END AS product_name,
       brands[1 + combo % len(brands)] AS brand,
       category_id,
       list_price::DECIMAL(10, 2) AS unit_price,
       round(list_price * (0.42 + 0.25 * u01(product_id, 'prod.cost')), 2)::DECIMAL(10, 2) AS unit_cost,
       DATE '2017-01-01' + below(product_id, 'prod.launch', 5 * 365)::INTEGER AS launched_on,
       u01(product_id, 'prod.active') >= 0.06 AS is_active,
       row_number() OVER (ORDER BY hash(product_id, 'prod.popularity'), product_id) AS popularity_rank
     FROM priced`,
    `INSERT INTO products
     SELECT product_id, sku, product_name, brand, category_id, unit_price, unit_cost, launched_on, is_active
     FROM stg_products ORDER BY product_id`,
  ];
}

const SALARY_BASE: Readonly<Record<string, number>> = {
  'Chief Executive Officer': 420_000,
  'Regional Manager': 165_000,
  'E-commerce Manager': 110_000,
  'Store Manager': 78_000,
  'Assistant Manager': 56_000,
  'Customer Service Agent': 38_000,
  'Sales Associate': 34_000,
  Cashier: 30_000,
  'Stock Associate': 31_000,
};

/** Staff who can serve a customer in a store, and so appear on in-store orders. */
const ORDER_TAKERS = ['Store Manager', 'Assistant Manager', 'Sales Associate', 'Cashier'];

function employees(): string[] {
  const staffTitles = weightedList([
    ['Sales Associate', 6],
    ['Cashier', 2],
    ['Stock Associate', 2],
  ] as const);
  const salaryCase = `CASE job_title ${Object.entries(SALARY_BASE)
    .map(([title, base]) => `WHEN ${sqlString(title)} THEN ${base}`)
    .join(' ')} END`;
  const levels = [0, 1, 2, 3];
  return [
    // level 0: the CEO; 1: one manager per region; 2: one manager per store; 3: store staff.
    `CREATE TEMP TABLE stg_employee_slots AS
     SELECT 0 AS level, NULL::INTEGER AS store_id, NULL::INTEGER AS region_id, 1 AS slot,
       'Chief Executive Officer' AS job_title, 'US' AS country_code
     UNION ALL
     SELECT 1, NULL, region_id, 1, 'Regional Manager', hq_country FROM ref_regions
     UNION ALL
     SELECT 2, s.store_id, c.region_id, 1,
       CASE WHEN s.store_type = 'online' THEN 'E-commerce Manager' ELSE 'Store Manager' END, coalesce(s.country_code, 'US')
     FROM stg_stores s LEFT JOIN ref_countries c USING (country_code)
     UNION ALL
     SELECT 3, store_id, NULL, slot,
       CASE WHEN store_type = 'online' THEN 'Customer Service Agent'
            WHEN slot = 2 THEN 'Assistant Manager'
            ELSE pick(${sqlList(staffTitles)}, store_id * 100 + slot, 'emp.title') END,
       country_code
     FROM (SELECT store_id, store_type, coalesce(country_code, 'US') AS country_code,
             unnest(range(2, 7 + below(store_id, 'store.staff', 8)::INTEGER)) AS slot FROM stg_stores)`,
    `CREATE TEMP TABLE stg_employees AS
     WITH numbered AS (
       SELECT row_number() OVER (ORDER BY level, store_id NULLS FIRST, region_id NULLS FIRST, slot)::INTEGER AS employee_id, *
       FROM stg_employee_slots
     ), managed AS (
       SELECT e.*,
         CASE e.level WHEN 0 THEN NULL WHEN 1 THEN 1 WHEN 2 THEN coalesce(rm.employee_id, 1) ELSE sm.employee_id END AS manager_id
       FROM numbered e
       LEFT JOIN numbered rm ON e.level = 2 AND rm.level = 1 AND rm.region_id = e.region_id
       LEFT JOIN numbered sm ON e.level = 3 AND sm.level = 2 AND sm.store_id = e.store_id
     ), named AS (
       SELECT m.*, c.pay_level, s.opened_on,
         pick(n.first_names, m.employee_id, 'emp.first') AS first_name,
         pick(n.last_names, m.employee_id, 'emp.last') AS last_name
       FROM managed m
       JOIN ref_countries c USING (country_code)
       JOIN ref_names n ON n.locale = c.locale
       LEFT JOIN stg_stores s ON s.store_id = m.store_id
     ), deduped AS (
       SELECT *, row_number() OVER (PARTITION BY first_name, last_name ORDER BY employee_id) AS same_name FROM named
     )
     SELECT employee_id, first_name, last_name,
       email_part(first_name) || '.' || email_part(last_name)
         || CASE WHEN same_name > 1 THEN same_name::VARCHAR ELSE '' END || '@${EMPLOYEE_EMAIL_DOMAIN}' AS email,
       job_title, store_id, manager_id,
       -- Everyone who serves customers was hired before the first order, so no order predates its employee.
       CASE level WHEN 0 THEN DATE '2009-04-01'
            WHEN 1 THEN DATE '2010-01-01' + below(employee_id, 'emp.hire', 6 * 365)::INTEGER
            ELSE opened_on + below(employee_id, 'emp.hire', DATE '${FIRST_ORDER_DATE}' - opened_on)::INTEGER END AS hire_date,
       (round(${salaryCase} * pay_level * (0.9 + 0.2 * u01(employee_id, 'emp.salary')), -2))::DECIMAL(10, 2) AS annual_salary,
       level
     FROM deduped`,
    // One insert per level: DuckDB checks the self-reference against rows already in the table.
    ...levels.map(
      (level) =>
        `INSERT INTO employees SELECT * EXCLUDE (level) FROM stg_employees WHERE level = ${level} ORDER BY employee_id`,
    ),
    `CREATE TEMP TABLE stg_store_staff AS
     SELECT store_id, list(employee_id ORDER BY employee_id) AS employee_ids
     FROM stg_employees WHERE store_id IS NOT NULL AND job_title IN (${ORDER_TAKERS.map(sqlString).join(', ')})
     GROUP BY store_id`,
  ];
}

function customersStage(count: number): string[] {
  const countryPick = weightedList(COUNTRIES.map((c) => [c.code, c.customerWeight] as const));
  return [
    `CREATE TEMP TABLE stg_customers AS
     WITH base AS (
       SELECT i::INTEGER AS customer_id, pick(${sqlList(countryPick)}, i, 'cust.country') AS country_code
       FROM range(1, ${count + 1}) t(i)
     ), named AS (
       SELECT b.customer_id, b.country_code, c.dial_code,
         pick(n.first_names, b.customer_id, 'cust.first') AS first_name,
         pick(n.last_names, b.customer_id, 'cust.last') AS last_name,
         pick(cp.cities, b.customer_id, 'cust.city') AS city,
         u01(b.customer_id, 'cust.email') AS u_email
       FROM base b
       JOIN ref_countries c USING (country_code)
       JOIN ref_names n ON n.locale = c.locale
       JOIN ref_city_pick cp ON cp.country_code = b.country_code
     )
     SELECT customer_id, first_name, last_name,
       CASE WHEN u_email < 0.45 THEN email_part(first_name) || '.' || email_part(last_name)
            WHEN u_email < 0.70 THEN email_part(first_name) || email_part(last_name)
            WHEN u_email < 0.85 THEN left(email_part(first_name), 1) || email_part(last_name)
            ELSE email_part(first_name) || '_' || email_part(last_name) END
         || customer_id::VARCHAR || '@' || pick(${sqlList(EMAIL_DOMAINS)}, customer_id, 'cust.domain') AS email,
       CASE WHEN u01(customer_id, 'cust.phone.null') < 0.35 THEN NULL
            ELSE '+' || dial_code || ' ' || lpad(below(customer_id, 'cust.phone', 1000000000)::VARCHAR, 9, '0') END AS phone,
       -- Triangular spread of ages; 12% never gave a birth date.
       CASE WHEN u01(customer_id, 'cust.birth.null') < 0.12 THEN NULL
            ELSE DATE '1945-01-01'
              + ((u01(customer_id, 'cust.birth.a') + u01(customer_id, 'cust.birth.b')) / 2 * 365.25 * 59)::INTEGER
       END AS birth_date,
       city, country_code,
       row_number() OVER (ORDER BY hash(customer_id, 'cust.activity'), customer_id) AS activity_rank
     FROM named`,
  ];
}

/** Relative order volume per calendar month: a quiet January, a strong November and December. */
const MONTH_FACTOR = [0.78, 0.82, 0.95, 0.97, 1.0, 1.02, 1.05, 1.08, 0.98, 1.03, 1.3, 1.62];

function ordersStage(count: number, customers: number): string[] {
  const monthCase = `CASE month(d) ${MONTH_FACTOR.map((f, i) => `WHEN ${i + 1} THEN ${f}`).join(' ')} END`;
  const inStoreHours = weightedList([
    [9, 1],
    [10, 2],
    [11, 2],
    [12, 3],
    [13, 2],
    [14, 2],
    [15, 2],
    [16, 2],
    [17, 3],
    [18, 3],
    [19, 2],
    [20, 1],
  ] as const);
  const onlineHours = weightedList([
    [0, 1],
    [1, 1],
    [6, 1],
    [7, 2],
    [8, 2],
    [9, 2],
    [10, 2],
    [11, 2],
    [12, 3],
    [13, 3],
    [14, 2],
    [15, 2],
    [16, 2],
    [17, 2],
    [18, 3],
    [19, 4],
    [20, 5],
    [21, 5],
    [22, 3],
    [23, 2],
  ] as const);
  const itemCounts = weightedList([
    [1, 35],
    [2, 25],
    [3, 17],
    [4, 10],
    [5, 7],
    [6, 4],
    [7, 1],
    [8, 1],
  ] as const);
  return [
    // Daily volume: growth over the years, months, weekends, Black Friday and the Christmas days.
    `CREATE TEMP TABLE stg_days AS
     WITH days AS (
       SELECT r::DATE AS d FROM range(TIMESTAMP '${FIRST_ORDER_DATE}', TIMESTAMP '${LAST_ORDER_DATE}' + INTERVAL 1 DAY, INTERVAL 1 DAY) t(r)
     ), weighted AS (
       SELECT d,
         (1 + 0.15 * (d - DATE '${FIRST_ORDER_DATE}') / 365.0)
         * ${monthCase}
         * CASE dayofweek(d) WHEN 6 THEN 1.25 WHEN 0 THEN 1.1 ELSE 0.94 END
         * CASE WHEN month(d) = 11 AND dayofweek(d) = 5 AND dayofmonth(d) BETWEEN 23 AND 29 THEN 2.6
                WHEN month(d) = 12 AND dayofmonth(d) = 25 THEN 0.35
                WHEN month(d) = 12 AND dayofmonth(d) = 26 THEN 1.5
                WHEN month(d) = 1 AND dayofmonth(d) = 1 THEN 0.5
                ELSE 1 END
         * (0.9 + 0.2 * u01(d, 'day.noise')) AS weight
       FROM days
     ), cumulative AS (
       -- Integer weights and cumulative rounding: the days add up to exactly the requested count,
       -- and no floating-point sum (whose order may vary between threads) decides a count.
       SELECT d, sum(round(weight * 100000)::BIGINT) OVER (ORDER BY d) AS upto,
         sum(round(weight * 100000)::BIGINT) OVER () AS total
       FROM weighted
     ), scaled AS (
       SELECT d, (upto * ${count} + total // 2) // total AS orders_upto FROM cumulative
     )
     SELECT d, (orders_upto - coalesce(lag(orders_upto) OVER (ORDER BY d), 0))::INTEGER AS n_orders FROM scaled`,
    `CREATE TEMP TABLE stg_orders AS
     WITH expanded AS (
       SELECT d, unnest(range(n_orders)) AS k FROM stg_days
     ), numbered AS (
       SELECT row_number() OVER (ORDER BY d, k)::INTEGER AS order_id, d AS order_date FROM expanded
     ), with_customer AS (
       -- Loyal customers order more: the top fifth of activity ranks places about 45% of the orders.
       SELECT o.order_id, o.order_date, c.customer_id, c.country_code, u01(o.order_id, 'ord.channel') AS u_channel
       FROM numbered o JOIN stg_customers c ON c.activity_rank = ${skewedRank('o.order_id', "'ord.customer'", customers, 0.35)}
     ), with_channel AS (
       SELECT *,
         CASE WHEN month(order_date) = 12 AND dayofmonth(order_date) = 25 THEN 'online'
              WHEN u_channel < 0.42 THEN 'online'
              WHEN u_channel < 0.47 + 0.05 * (year(order_date) - 2022) THEN 'mobile_app'
              ELSE 'in_store' END AS channel
       FROM with_customer
     ), with_store AS (
       SELECT w.*, CASE WHEN w.channel = 'in_store' THEN pick(cs.store_ids, w.order_id, 'ord.store') ELSE ${ONLINE_STORE_ID} END AS store_id
       FROM with_channel w LEFT JOIN stg_country_stores cs USING (country_code)
     )
     SELECT s.order_id, s.customer_id, s.store_id::INTEGER AS store_id,
       CASE WHEN s.channel = 'in_store' THEN pick(ss.employee_ids, s.order_id, 'ord.employee') END::INTEGER AS employee_id,
       s.order_date,
       s.order_date::TIMESTAMP + to_seconds(
         CASE WHEN s.channel = 'in_store' THEN pick(${sqlList(inStoreHours)}, s.order_id, 'ord.hour')
              ELSE pick(${sqlList(onlineHours)}, s.order_id, 'ord.hour') END * 3600
         + below(s.order_id, 'ord.second', 3600)) AS ordered_at,
       s.channel,
       CASE WHEN u01(s.order_id, 'ord.cancel') < 0.025 THEN 'cancelled'
            WHEN s.channel = 'in_store' THEN 'completed'
            WHEN DATE '${LAST_ORDER_DATE}' - s.order_date < 3 THEN 'processing'
            WHEN DATE '${LAST_ORDER_DATE}' - s.order_date < 8 THEN 'shipped'
            ELSE 'delivered' END AS status,
       pick(${sqlList(itemCounts)}, s.order_id, 'ord.items') AS n_items
     FROM with_store s LEFT JOIN stg_store_staff ss ON ss.store_id = s.store_id`,
  ];
}

function orderItemsStage(productCount: number): string[] {
  const quantities = weightedList([
    [1, 70],
    [2, 18],
    [3, 7],
    [4, 3],
    [5, 1],
    [6, 1],
  ] as const);
  const discounts = [5, 10, 10, 15, 15, 20, 25, 30];
  return [
    `CREATE TEMP TABLE stg_items AS
     WITH lines AS (
       SELECT order_id, order_date, unnest(range(1, n_items + 1)) AS line_number FROM stg_orders
     ), numbered AS (
       SELECT row_number() OVER (ORDER BY order_id, line_number) AS order_item_id, * FROM lines
     ), priced AS (
       -- Skewed popularity: the top tenth of the catalogue sells over a third of the lines.
       SELECT n.order_item_id, n.order_id, n.line_number::INTEGER AS line_number, p.product_id,
         pick(${sqlList(quantities)}, n.order_item_id, 'item.qty')::INTEGER AS quantity,
         -- List prices rise about 3% a year; the catalogue holds the 2024 price.
         round(p.unit_price * (0.94 + 0.03 * (year(n.order_date) - 2022)), 2)::DECIMAL(10, 2) AS unit_price,
         (CASE WHEN u01(n.order_item_id, 'item.discount') < CASE
                 WHEN month(n.order_date) = 11 AND dayofweek(n.order_date) = 5 AND dayofmonth(n.order_date) BETWEEN 23 AND 29 THEN 0.35
                 WHEN month(n.order_date) IN (11, 12) THEN 0.62
                 WHEN month(n.order_date) IN (1, 7) THEN 0.7
                 ELSE 0.82 END
               THEN 0
               ELSE pick(${sqlList(discounts)}, n.order_item_id, 'item.discount.pct') END)::DECIMAL(5, 2) AS discount_pct
       FROM numbered n JOIN stg_products p
         ON p.popularity_rank = ${skewedRank('n.order_item_id', "'item.product'", productCount, 0.15)}
     )
     SELECT order_item_id, order_id, line_number, product_id, quantity, unit_price, discount_pct,
       round(quantity * unit_price * (100 - discount_pct) / 100, 2)::DECIMAL(12, 2) AS line_total
     FROM priced`,
    `CREATE TEMP TABLE stg_order_totals AS
     SELECT o.*,
       (CASE WHEN o.channel <> 'in_store' AND t.subtotal < 50 THEN 4.99 ELSE 0 END)::DECIMAL(8, 2) AS shipping_fee,
       t.subtotal
     FROM stg_orders o JOIN (SELECT order_id, sum(line_total) AS subtotal FROM stg_items GROUP BY order_id) t USING (order_id)`,
  ];
}

/**
 * A rank in [1, n] drawn with a popularity skew: rank / n = a*u + (1-a)*u^3. Rank 1 is drawn 1/a
 * times as often as the average rank, and the tail still gets some draws (a plain power law would
 * give the top rank a share that no real customer or product has).
 */
function skewedRank(key: string, salt: string, n: number, a: number): string {
  const u = `u01(${key}, ${salt})`;
  return `1 + least(${n - 1}, floor(${n} * (${a} * ${u} + ${1 - a} * pow(${u}, 3))))::BIGINT`;
}

function customersInsert(): string[] {
  return [
    // Signed up before their first order; the loyalty tier follows lifetime spending.
    `INSERT INTO customers
     WITH spend AS (
       SELECT customer_id, min(order_date) AS first_order,
         sum(subtotal + shipping_fee) FILTER (WHERE status <> 'cancelled') AS spent
       FROM stg_order_totals GROUP BY customer_id
     ), ranked AS (
       SELECT c.*, s.first_order, coalesce(s.spent, 0) AS spent,
         percent_rank() OVER (ORDER BY coalesce(s.spent, 0) DESC, c.customer_id) AS spend_rank
       FROM stg_customers c LEFT JOIN spend s USING (customer_id)
     )
     SELECT customer_id, first_name, last_name, email, phone, birth_date, city, country_code,
       CASE WHEN first_order IS NULL THEN DATE '2019-01-01' + below(customer_id, 'cust.signup', 6 * 365)::INTEGER
            ELSE first_order - below(customer_id, 'cust.signup', 700)::INTEGER END AS signup_date,
       CASE WHEN spent = 0 THEN 'Bronze'
            WHEN spend_rank < 0.05 THEN 'Platinum'
            WHEN spend_rank < 0.20 THEN 'Gold'
            WHEN spend_rank < 0.50 THEN 'Silver'
            ELSE 'Bronze' END AS loyalty_tier
     FROM ranked ORDER BY customer_id`,
  ];
}

function ordersInsert(): string[] {
  return [
    `INSERT INTO orders
     SELECT order_id, customer_id, store_id, employee_id, order_date, ordered_at, channel, status, shipping_fee,
       (subtotal + shipping_fee)::DECIMAL(12, 2) AS total_amount
     FROM stg_order_totals ORDER BY order_id`,
  ];
}

function paymentsInsert(): string[] {
  const inStore = weightedList([
    ['card', 62],
    ['cash', 18],
    ['mobile_wallet', 14],
    ['gift_card', 6],
  ] as const);
  const online = weightedList([
    ['card', 58],
    ['paypal', 24],
    ['mobile_wallet', 8],
    ['gift_card', 5],
    ['bank_transfer', 5],
  ] as const);
  const app = weightedList([
    ['card', 45],
    ['paypal', 20],
    ['mobile_wallet', 30],
    ['gift_card', 5],
  ] as const);
  return [
    `INSERT INTO payments
     SELECT row_number() OVER (ORDER BY order_id)::INTEGER AS payment_id, order_id,
       CASE channel WHEN 'in_store' THEN pick(${sqlList(inStore)}, order_id, 'pay.method')
                    WHEN 'mobile_app' THEN pick(${sqlList(app)}, order_id, 'pay.method')
                    ELSE pick(${sqlList(online)}, order_id, 'pay.method') END AS payment_method,
       (subtotal + shipping_fee)::DECIMAL(12, 2) AS amount,
       ordered_at + to_seconds(CASE WHEN channel = 'in_store' THEN 30 + below(order_id, 'pay.delay', 270)
                                    ELSE below(order_id, 'pay.delay', 90) END) AS paid_at
     FROM stg_order_totals WHERE status <> 'cancelled' ORDER BY order_id`,
  ];
}

function returnsInsert(): string[] {
  const apparelReasons = weightedList([
    ['Wrong size', 8],
    ['Not as described', 2],
    ['Changed mind', 3],
    ['Damaged in transit', 1],
    ['Defective', 1],
  ] as const);
  return [
    // Return rates differ by category (apparel most) and are higher for goods bought unseen online.
    `INSERT INTO returns
     WITH candidates AS (
       SELECT i.order_item_id, i.quantity, i.line_total, o.order_date, c.department
       FROM stg_items i
       JOIN stg_order_totals o USING (order_id)
       JOIN stg_products p ON p.product_id = i.product_id
       JOIN ref_categories c ON c.category_id = p.category_id
       WHERE o.status IN ('completed', 'delivered')
         AND u01(i.order_item_id, 'ret.pick') < c.return_rate * CASE WHEN o.channel = 'in_store' THEN 0.6 ELSE 1.2 END
     ), shaped AS (
       SELECT *,
         order_date + (3 + below(order_item_id, 'ret.delay', 35))::INTEGER AS returned_on,
         (1 + below(order_item_id, 'ret.qty', quantity))::INTEGER AS returned_quantity
       FROM candidates
     )
     SELECT row_number() OVER (ORDER BY order_item_id)::INTEGER AS return_id, order_item_id, returned_on,
       returned_quantity AS quantity,
       CASE WHEN u01(order_item_id, 'ret.reason.null') < 0.1 THEN NULL
            WHEN department = 'Apparel' THEN pick(${sqlList(apparelReasons)}, order_item_id, 'ret.reason')
            ELSE pick(${sqlList(RETURN_REASONS)}, order_item_id, 'ret.reason') END AS reason,
       round(line_total * returned_quantity / quantity, 2)::DECIMAL(12, 2) AS refund_amount
     FROM shaped WHERE returned_on <= DATE '${LAST_ORDER_DATE}' ORDER BY order_item_id`,
  ];
}

function comments(): string[] {
  return [
    ...DEMO_TABLES.map((t) => `COMMENT ON TABLE ${t} IS ${sqlString(DEMO_TABLE_COMMENTS[t])}`),
    ...DEMO_COLUMN_COMMENTS.map(([t, c, text]) => `COMMENT ON COLUMN ${t}.${c} IS ${sqlString(text)}`),
  ];
}
