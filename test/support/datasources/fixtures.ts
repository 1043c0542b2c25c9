/**
 * A small shop schema (customers <- orders <- order_items, with a composite key) in a real database
 * of each type: a uniquely named PostgreSQL or MariaDB database (dropped afterwards) or a DuckDB or
 * SQLite file in a temp dir. `alter` runs DDL through a separate, writable connection.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { DuckDBInstance } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import { createConnection } from 'mysql2/promise';
import { Client } from 'pg';
import type { DatasourceConfig } from '../../../src/config/schema';
import type { DatasourceType } from '../../../src/engine/datasources/adapter';

export const PG = { host: '127.0.0.1', port: 5432, user: 'postgres' };
export const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root' };

/** Where a MariaDB fixture lives: the shared server, or a private one (private-mariadb.ts). */
export interface MariadbServer {
  readonly host: string;
  readonly port: number;
  readonly user: string;
}

export interface Fixture {
  readonly config: DatasourceConfig;
  /** Runs DDL/DML with write access (DuckDB: only while no adapter holds the file). */
  alter(sql: string): Promise<void>;
  drop(): Promise<void>;
}

const TABLES = (t: { int: string; big: string; ts: string; text: string }) => [
  `CREATE TABLE customers (id ${t.int} PRIMARY KEY, name VARCHAR(40) NOT NULL, email VARCHAR(80), country VARCHAR(20) NOT NULL)`,
  `CREATE TABLE orders (id ${t.big} PRIMARY KEY, customer_id ${t.int} NOT NULL REFERENCES customers (id), amount DECIMAL(10,2) NOT NULL, placed_at ${t.ts} NOT NULL, note ${t.text})`,
  `CREATE TABLE order_items (order_id ${t.big} NOT NULL, line_no ${t.int} NOT NULL, product VARCHAR(40) NOT NULL, qty ${t.int} NOT NULL, ` +
    `PRIMARY KEY (order_id, line_no), FOREIGN KEY (order_id) REFERENCES orders (id))`,
  `INSERT INTO customers VALUES (1, 'Ada', 'ada@example.com', 'France'), (2, 'Bo', NULL, 'Chile'), (3, 'Cy', 'cy@example.com', 'France')`,
  `INSERT INTO orders VALUES (10, 1, 12.50, '2024-01-02 03:04:05', 'first'), (11, 1, 99.99, '2024-02-03 10:00:00', NULL), (12, 3, 5.00, '2024-03-04 12:30:00', NULL)`,
  `INSERT INTO order_items VALUES (10, 1, 'pen', 2), (10, 2, 'ink', 1), (11, 1, 'pad', 5)`,
];

export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

async function postgresFixture(): Promise<Fixture> {
  const database = uniqueName('nl2sql_ds_test');
  const admin = new Client({ ...PG, database: 'postgres' });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const run = async (sql: string) => {
    const c = new Client({ ...PG, database });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  for (const sql of TABLES({ int: 'INTEGER', big: 'BIGINT', ts: 'TIMESTAMP', text: 'TEXT' })) await run(sql);
  await run('ANALYZE');
  return {
    config: { id: 'pg_fixture', type: 'postgres', connection: { ...PG, database } },
    alter: run,
    drop: async () => {
      const c = new Client({ ...PG, database: 'postgres' });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await c.end();
    },
  };
}

async function mysqlFixture(at: MariadbServer = MARIADB): Promise<Fixture> {
  const server = { host: at.host, port: at.port, user: at.user };
  const database = uniqueName('nl2sql_ds_test');
  const admin = await createConnection({ ...server });
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const run = async (sql: string) => {
    const c = await createConnection({ ...server, database });
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  for (const sql of TABLES({ int: 'INT', big: 'BIGINT', ts: 'DATETIME', text: 'TEXT' })) await run(sql);
  await run('ANALYZE TABLE customers, orders, order_items');
  return {
    config: { id: 'mysql_fixture', type: 'mysql', connection: { ...server, database } },
    alter: run,
    drop: async () => {
      const c = await createConnection({ ...server });
      await c.query(`DROP DATABASE IF EXISTS ${database}`);
      await c.end();
    },
  };
}

async function duckdbFixture(): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'nl2sql-duckdb-'));
  const path = join(dir, 'shop.duckdb');
  const run = async (sql: string) => {
    const instance = await DuckDBInstance.create(path);
    const conn = await instance.connect();
    try {
      await conn.run(sql);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  };
  await run(TABLES({ int: 'INTEGER', big: 'BIGINT', ts: 'TIMESTAMP', text: 'TEXT' }).join(';\n'));
  return {
    config: { id: 'duckdb_fixture', type: 'duckdb', connection: { path } },
    alter: run,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function sqliteFixture(): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'nl2sql-sqlite-'));
  const path = join(dir, 'shop.sqlite');
  const run = async (sql: string) => {
    const db = new Database(path);
    try {
      db.pragma('foreign_keys = ON');
      db.exec(sql);
    } finally {
      db.close();
    }
  };
  await run(TABLES({ int: 'INTEGER', big: 'BIGINT', ts: 'TIMESTAMP', text: 'TEXT' }).join(';\n'));
  return {
    config: { id: 'sqlite_fixture', type: 'sqlite', connection: { path } },
    alter: run,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** `mariadb`: the server of a mysql fixture (default: the shared one). */
export function createFixture(type: DatasourceType, mariadb?: MariadbServer): Promise<Fixture> {
  switch (type) {
    case 'postgres':
      return postgresFixture();
    case 'mysql':
      return mysqlFixture(mariadb);
    case 'duckdb':
      return duckdbFixture();
    case 'sqlite':
      return sqliteFixture();
  }
}
