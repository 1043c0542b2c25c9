/**
 * The demo database's published schema: tables with their primary and foreign keys, and comments
 * that introspection and the planner's prompt can read. DuckDB checks a foreign key on insert and
 * cannot add one later (no `ALTER TABLE ... ADD FOREIGN KEY`), so the tables are created with
 * their constraints and filled parents first.
 */
import { SERVICE_META_SCHEMA } from '../engine/datasources/duckdb/meta-schema';

/** The demo's tables in dependency order (a table only references tables before it). */
export const DEMO_TABLES = [
  'regions',
  'countries',
  'stores',
  'customers',
  'categories',
  'products',
  'employees',
  'orders',
  'order_items',
  'payments',
  'returns',
] as const;

export type DemoTable = (typeof DEMO_TABLES)[number];

/**
 * Where the build marker lives: the DuckDB adapter's bookkeeping schema, which introspection leaves
 * out, so the marker does not sit among the business tables.
 */
export const DEMO_META_SCHEMA = SERVICE_META_SCHEMA;
export const BUILD_INFO_TABLE = `${DEMO_META_SCHEMA}.build_info`;

export const DEMO_DDL: Readonly<Record<DemoTable, string>> = {
  regions: `CREATE TABLE regions (
    region_id INTEGER PRIMARY KEY,
    region_name VARCHAR NOT NULL UNIQUE
  )`,
  countries: `CREATE TABLE countries (
    country_code VARCHAR PRIMARY KEY,
    country_name VARCHAR NOT NULL UNIQUE,
    region_id INTEGER NOT NULL REFERENCES regions (region_id),
    currency_code VARCHAR NOT NULL
  )`,
  stores: `CREATE TABLE stores (
    store_id INTEGER PRIMARY KEY,
    store_name VARCHAR NOT NULL,
    store_type VARCHAR NOT NULL,
    city VARCHAR,
    country_code VARCHAR REFERENCES countries (country_code),
    opened_on DATE NOT NULL,
    floor_area_sqm INTEGER
  )`,
  customers: `CREATE TABLE customers (
    customer_id INTEGER PRIMARY KEY,
    first_name VARCHAR NOT NULL,
    last_name VARCHAR NOT NULL,
    email VARCHAR NOT NULL,
    phone VARCHAR,
    birth_date DATE,
    city VARCHAR NOT NULL,
    country_code VARCHAR NOT NULL REFERENCES countries (country_code),
    signup_date DATE NOT NULL,
    loyalty_tier VARCHAR NOT NULL
  )`,
  categories: `CREATE TABLE categories (
    category_id INTEGER PRIMARY KEY,
    category_name VARCHAR NOT NULL UNIQUE,
    department VARCHAR NOT NULL
  )`,
  products: `CREATE TABLE products (
    product_id INTEGER PRIMARY KEY,
    sku VARCHAR NOT NULL UNIQUE,
    product_name VARCHAR NOT NULL,
    brand VARCHAR NOT NULL,
    category_id INTEGER NOT NULL REFERENCES categories (category_id),
    unit_price DECIMAL(10, 2) NOT NULL,
    unit_cost DECIMAL(10, 2) NOT NULL,
    launched_on DATE NOT NULL,
    is_active BOOLEAN NOT NULL
  )`,
  employees: `CREATE TABLE employees (
    employee_id INTEGER PRIMARY KEY,
    first_name VARCHAR NOT NULL,
    last_name VARCHAR NOT NULL,
    email VARCHAR NOT NULL,
    job_title VARCHAR NOT NULL,
    store_id INTEGER REFERENCES stores (store_id),
    manager_id INTEGER REFERENCES employees (employee_id),
    hire_date DATE NOT NULL,
    annual_salary DECIMAL(10, 2) NOT NULL
  )`,
  orders: `CREATE TABLE orders (
    order_id INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers (customer_id),
    store_id INTEGER NOT NULL REFERENCES stores (store_id),
    employee_id INTEGER REFERENCES employees (employee_id),
    order_date DATE NOT NULL,
    ordered_at TIMESTAMP NOT NULL,
    channel VARCHAR NOT NULL,
    status VARCHAR NOT NULL,
    shipping_fee DECIMAL(8, 2) NOT NULL,
    total_amount DECIMAL(12, 2) NOT NULL
  )`,
  order_items: `CREATE TABLE order_items (
    order_item_id BIGINT PRIMARY KEY,
    order_id INTEGER NOT NULL REFERENCES orders (order_id),
    line_number INTEGER NOT NULL,
    product_id INTEGER NOT NULL REFERENCES products (product_id),
    quantity INTEGER NOT NULL,
    unit_price DECIMAL(10, 2) NOT NULL,
    discount_pct DECIMAL(5, 2) NOT NULL,
    line_total DECIMAL(12, 2) NOT NULL
  )`,
  payments: `CREATE TABLE payments (
    payment_id INTEGER PRIMARY KEY,
    order_id INTEGER NOT NULL REFERENCES orders (order_id),
    payment_method VARCHAR NOT NULL,
    amount DECIMAL(12, 2) NOT NULL,
    paid_at TIMESTAMP NOT NULL
  )`,
  returns: `CREATE TABLE returns (
    return_id INTEGER PRIMARY KEY,
    order_item_id BIGINT NOT NULL REFERENCES order_items (order_item_id),
    returned_on DATE NOT NULL,
    quantity INTEGER NOT NULL,
    reason VARCHAR,
    refund_amount DECIMAL(12, 2) NOT NULL
  )`,
};

/** Comments a reader (or a model) needs to use the tables correctly. */
export const DEMO_TABLE_COMMENTS: Readonly<Record<DemoTable, string>> = {
  regions: 'Sales regions of the retailer.',
  countries: 'Countries the retailer sells in, each in one region.',
  stores:
    "Physical stores plus one 'Online Store' (store_type = 'online', no city or country) that serves the online and mobile app channels.",
  customers:
    'Registered customers. loyalty_tier follows lifetime spending (Platinum, Gold, Silver, Bronze). phone and birth_date are optional.',
  categories: 'Product categories grouped into departments.',
  products:
    'Product catalogue. unit_price is the current list price in USD; unit_cost what the retailer pays.',
  employees: 'Staff. manager_id points to the employee they report to; head-office staff have no store_id.',
  orders:
    "One row per customer order, 2022-01-01 to 2024-12-31. channel: in_store, online, mobile_app. status: completed (in store), delivered, shipped, processing, cancelled. Revenue questions should exclude status = 'cancelled'. total_amount = sum of the order's line_total plus shipping_fee, in USD.",
  order_items:
    'Order lines (the sales fact table). line_total = quantity * unit_price * (1 - discount_pct / 100), in USD; unit_price is the price charged at the time of the order.',
  payments:
    'One payment per order that was not cancelled. payment_method: card, cash, paypal, mobile_wallet, gift_card, bank_transfer.',
  returns:
    'Returned order lines with the returned quantity and the refund in USD. reason is null when the customer gave none.',
};

export const DEMO_COLUMN_COMMENTS: readonly (readonly [table: DemoTable, column: string, comment: string])[] =
  [
    [
      'orders',
      'employee_id',
      'Sales employee who served an in-store order; null for online and mobile app orders.',
    ],
    [
      'orders',
      'store_id',
      "The store that took the order; online and mobile app orders use the 'Online Store'.",
    ],
    ['order_items', 'discount_pct', 'Discount in percent (0 to 30).'],
    ['customers', 'signup_date', 'Date the customer registered.'],
    ['products', 'is_active', 'False when the product has been discontinued.'],
    ['stores', 'floor_area_sqm', 'Sales floor area in square metres; null for the Online Store.'],
  ];
