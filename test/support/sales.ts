/**
 * A small sales database (customers and orders, each row in a region) on every datasource type,
 * for the row and column policy tests. Its values are easy to look for in anything a caller or a
 * model receives (SALES_MARKERS). PostgreSQL and MySQL databases get unique names and are dropped
 * by `drop`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import knex from 'knex';

export type SalesEngine = 'sqlite' | 'duckdb' | 'postgres' | 'mysql';

export const SALES = {
  customers: [
    [1, 'Zorblatt', 'reg_alpha', '+33 612345678'],
    [2, 'Quiggly', 'reg_beta', '+1 5551234567'],
    [3, 'Fennimore', 'reg_alpha', null],
    [4, 'Wobbleton', 'reg_beta', '+1 5559876543'],
  ],
  orders: [
    [1, 1, 'reg_alpha', 1001],
    [2, 1, 'reg_alpha', 2002],
    [3, 2, 'reg_beta', 505],
    [4, 3, 'reg_alpha', 707],
    [5, 4, 'reg_beta', 10010],
  ],
} as const;

/** Stored values of the database: none may reach a model whose caller's role lets it see none. */
export const SALES_MARKERS = [
  'Zorblatt',
  'Quiggly',
  'Fennimore',
  'Wobbleton',
  'reg_alpha',
  'reg_beta',
  '612345678',
  '5551234567',
  '5559876543',
];

const literal = (v: string | number | null) =>
  v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`;

const STATEMENTS = (text: string) => [
  `CREATE TABLE customers (id INTEGER PRIMARY KEY, name ${text} NOT NULL, region ${text} NOT NULL, phone ${text})`,
  `CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id), region ${text} NOT NULL, amount INTEGER NOT NULL)`,
  `INSERT INTO customers VALUES ${SALES.customers.map((r) => `(${r.map(literal).join(', ')})`).join(', ')}`,
  `INSERT INTO orders VALUES ${SALES.orders.map((r) => `(${r.map(literal).join(', ')})`).join(', ')}`,
];

export interface SalesDatasource {
  readonly config: Record<string, unknown>;
  drop(): Promise<void>;
}

export async function salesOn(type: SalesEngine, id: string): Promise<SalesDatasource> {
  if (type === 'sqlite') {
    const path = join(mkdtempSync(join(tmpdir(), 'nl2sql-sales-')), 'sales.sqlite');
    const db = new Database(path);
    for (const sql of STATEMENTS('TEXT')) db.exec(sql);
    db.close();
    return { config: { id, type, connection: { path } }, drop: async () => undefined };
  }
  if (type === 'duckdb') {
    const path = join(mkdtempSync(join(tmpdir(), 'nl2sql-sales-')), 'sales.duckdb');
    const instance = await DuckDBInstance.create(path);
    const conn = await instance.connect();
    for (const sql of STATEMENTS('VARCHAR')) await conn.run(sql);
    conn.closeSync();
    instance.closeSync();
    return { config: { id, type, connection: { path } }, drop: async () => undefined };
  }
  const database = `nl2sql_sales_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
  const server =
    type === 'postgres'
      ? { client: 'pg', connection: { host: '127.0.0.1', port: 5432, user: 'postgres' } }
      : { client: 'mysql2', connection: { host: '127.0.0.1', port: 3306, user: 'root', password: '' } };
  const admin = knex({
    ...server,
    connection: { ...server.connection, ...(type === 'postgres' ? { database: 'postgres' } : {}) },
  });
  await admin.raw(`CREATE DATABASE ${database}`);
  const db = knex({ ...server, connection: { ...server.connection, database } });
  for (const sql of STATEMENTS('VARCHAR(64)')) await db.raw(sql);
  await db.destroy();
  const { host, port, user } = server.connection;
  return {
    config: { id, type, connection: { host, port, user, database } },
    drop: async () => {
      if (type === 'postgres')
        await admin.raw('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ?', [
          database,
        ]);
      await admin.raw(`DROP DATABASE IF EXISTS ${database}`);
      await admin.destroy();
    },
  };
}
