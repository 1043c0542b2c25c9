/**
 * A shop with a table and a column a role may be denied (`payroll`, `customers.email`), on real
 * SQLite and PostgreSQL, for the policy tests. Its denied values are easy to look for in anything
 * a caller receives (DENIED_MARKERS); PostgreSQL databases get unique names and are dropped by `drop`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import knex from 'knex';

export type PolicyEngine = 'sqlite' | 'postgres';

const STATEMENTS = [
  'CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR(64) NOT NULL, email VARCHAR(128), country VARCHAR(64))',
  "INSERT INTO customers VALUES (1, 'Ada', 'ada@hidden-mail.example', 'France'), (2, 'Linus', 'linus@hidden-mail.example', 'Finland')",
  'CREATE TABLE payroll (id INTEGER PRIMARY KEY, name VARCHAR(64) NOT NULL, salary INTEGER NOT NULL)',
  "INSERT INTO payroll VALUES (1, 'Ada', 987651), (2, 'Linus', 876542)",
];

/** Text of the denied data: none of it may reach a caller whose roles are denied it. */
export const DENIED_MARKERS = {
  table: ['987651', '876542', '1864193'],
  column: ['hidden-mail'],
} as const;

export interface PolicyShop {
  readonly config: Record<string, unknown>;
  drop(): Promise<void>;
}

export async function policyShopOn(engine: PolicyEngine, id = 'shop'): Promise<PolicyShop> {
  if (engine === 'sqlite') {
    const path = join(mkdtempSync(join(tmpdir(), 'nl2sql-policy-')), 'shop.sqlite');
    const db = new Database(path);
    for (const sql of STATEMENTS) db.exec(sql);
    db.close();
    return { config: { id, type: 'sqlite', connection: { path } }, drop: async () => undefined };
  }
  const database = `nl2sql_policy_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
  const pg = (db: string) =>
    knex({ client: 'pg', connection: { host: '127.0.0.1', port: 5432, user: 'postgres', database: db } });
  const admin = pg('postgres');
  await admin.raw(`CREATE DATABASE ${database}`);
  const db = pg(database);
  for (const sql of STATEMENTS) await db.raw(sql);
  await db.destroy();
  return {
    config: {
      id,
      type: 'postgres',
      connection: { host: '127.0.0.1', port: 5432, user: 'postgres', database },
    },
    drop: async () => {
      await admin.raw('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ?', [database]);
      await admin.raw(`DROP DATABASE IF EXISTS ${database}`);
      await admin.destroy();
    },
  };
}
