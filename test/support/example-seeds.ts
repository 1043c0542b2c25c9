/**
 * Creates the example configs' databases from the seed files the project ships (config/seed/),
 * the same files docker-compose.yml gives its PostgreSQL and MariaDB services. Used by the config
 * tests (on uniquely named databases) and by `npm run seed:examples` (on the names the configs use).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import { Client } from 'pg';

export const SEED_DIR = resolve(__dirname, '..', '..', 'config', 'seed');
export const SEEDS = {
  shop: join(SEED_DIR, 'shop.postgres.sql'),
  crm: join(SEED_DIR, 'crm.mysql.sql'),
  inventory: join(SEED_DIR, 'inventory.sqlite.sql'),
} as const;

const read = (file: string) => readFileSync(file, 'utf8');
const plainName = (name: string) => {
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`database name '${name}': letters, digits and _ only`);
  return name;
};

/** Creates `database` (when missing) on the server of `url` and runs the shop seed in it, once. */
export async function seedPostgres(url: string, seed = SEEDS.shop): Promise<'seeded' | 'already seeded'> {
  const target = new URL(url);
  const database = plainName(decodeURIComponent(target.pathname.slice(1)));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const server = new Client({ connectionString: admin.toString() });
  await server.connect();
  try {
    const found = await server.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await server.query(`CREATE DATABASE "${database}"`);
  } finally {
    await server.end();
  }
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const tables = await db.query("SELECT 1 FROM information_schema.tables WHERE table_schema = 'public'");
    if (tables.rowCount) return 'already seeded';
    await db.query(read(seed));
    return 'seeded';
  } finally {
    await db.end();
  }
}

/** The same for MySQL or MariaDB. */
export async function seedMysql(url: string, seed = SEEDS.crm): Promise<'seeded' | 'already seeded'> {
  const target = new URL(url);
  const database = plainName(decodeURIComponent(target.pathname.slice(1)));
  const conn = await mysql.createConnection({
    host: target.hostname,
    port: Number(target.port || 3306),
    user: decodeURIComponent(target.username),
    password: decodeURIComponent(target.password),
    multipleStatements: true,
  });
  try {
    await conn.query(`CREATE DATABASE IF NOT EXISTS \`${database}\``);
    await conn.query(`USE \`${database}\``);
    const [tables] = await conn.query('SHOW TABLES');
    if ((tables as unknown[]).length) return 'already seeded';
    await conn.query(read(seed));
    return 'seeded';
  } finally {
    await conn.end();
  }
}

/** Creates the SQLite file from its seed, unless it exists. */
export function seedSqlite(path: string, seed = SEEDS.inventory): 'seeded' | 'already seeded' {
  if (existsSync(path)) return 'already seeded';
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    db.exec(read(seed));
  } finally {
    db.close();
  }
  return 'seeded';
}

/** Drops a database seedPostgres or seedMysql created (tests only). */
export async function dropDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const database = plainName(decodeURIComponent(target.pathname.slice(1)));
  if (target.protocol.startsWith('postgres')) {
    target.pathname = '/postgres';
    const server = new Client({ connectionString: target.toString() });
    await server.connect();
    await server.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).finally(() => server.end());
    return;
  }
  const conn = await mysql.createConnection({
    host: target.hostname,
    port: Number(target.port || 3306),
    user: decodeURIComponent(target.username),
    password: decodeURIComponent(target.password),
  });
  await conn.query(`DROP DATABASE IF EXISTS \`${database}\``).finally(() => conn.end());
}
