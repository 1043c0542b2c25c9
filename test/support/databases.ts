/**
 * The same small shop (customers, orders) on every datasource type, for tests that must run on
 * real servers and files. PostgreSQL and MySQL databases get unique names and are dropped by `drop`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import knex from 'knex';
import { makeSqliteFixture } from './app';

export const SHOP_ROWS = {
  customers: [
    [1, 'Ada', 'France'],
    [2, 'Linus', 'Finland'],
  ],
  orders: [
    [1, 1, 10.5],
    [2, 1, 20],
    [3, 2, 7.25],
  ],
} as const;

export interface ShopDatasource {
  readonly config: Record<string, unknown>;
  drop(): Promise<void>;
}

const unique = (prefix: string) =>
  `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;

const DDL = (intType: string, textType: string, realType: string) => [
  `CREATE TABLE customers (id ${intType} PRIMARY KEY, name ${textType} NOT NULL, country ${textType})`,
  `CREATE TABLE orders (id ${intType} PRIMARY KEY, customer_id ${intType} NOT NULL REFERENCES customers(id), amount ${realType})`,
  `INSERT INTO customers VALUES ${SHOP_ROWS.customers.map((r) => `(${r[0]}, '${r[1]}', '${r[2]}')`).join(', ')}`,
  `INSERT INTO orders VALUES ${SHOP_ROWS.orders.map((r) => `(${r.join(', ')})`).join(', ')}`,
];

export async function shopOn(
  type: 'sqlite' | 'duckdb' | 'postgres' | 'mysql',
  id = 'shop',
): Promise<ShopDatasource> {
  if (type === 'sqlite') {
    return { config: { id, type, connection: { path: makeSqliteFixture() } }, drop: async () => undefined };
  }
  if (type === 'duckdb') {
    const path = join(mkdtempSync(join(tmpdir(), 'nl2sql-duck-')), 'shop.duckdb');
    const instance = await DuckDBInstance.create(path);
    const conn = await instance.connect();
    for (const sql of DDL('INTEGER', 'VARCHAR', 'DOUBLE')) await conn.run(sql);
    conn.closeSync();
    instance.closeSync();
    return { config: { id, type, connection: { path } }, drop: async () => undefined };
  }
  const database = unique('nl2sql_shop');
  const admin =
    type === 'postgres'
      ? knex({
          client: 'pg',
          connection: { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' },
        })
      : knex({ client: 'mysql2', connection: { host: '127.0.0.1', port: 3306, user: 'root', password: '' } });
  await admin.raw(`CREATE DATABASE ${database}`);
  const db =
    type === 'postgres'
      ? knex({ client: 'pg', connection: { host: '127.0.0.1', port: 5432, user: 'postgres', database } })
      : knex({
          client: 'mysql2',
          connection: { host: '127.0.0.1', port: 3306, user: 'root', password: '', database },
        });
  for (const sql of DDL('INTEGER', 'VARCHAR(64)', type === 'postgres' ? 'DOUBLE PRECISION' : 'DOUBLE'))
    await db.raw(sql);
  await db.destroy();
  const connection =
    type === 'postgres'
      ? { host: '127.0.0.1', port: 5432, user: 'postgres', database }
      : { host: '127.0.0.1', port: 3306, user: 'root', database };
  return {
    config: { id, type, connection },
    drop: async () => {
      if (type === 'postgres') {
        await admin.raw(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ?`, [
          database,
        ]);
      }
      await admin.raw(`DROP DATABASE IF EXISTS ${database}`);
      await admin.destroy();
    },
  };
}
