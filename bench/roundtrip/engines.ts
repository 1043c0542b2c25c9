/**
 * The four engines the roundtrip bench runs compiled plans on. SQLite reads the dataset's file;
 * DuckDB (a temp file), PostgreSQL and MySQL get a copy of the same data, loaded here into
 * databases this bench creates with unique names and drops when it ends. Text compares bytewise in
 * every copy (PostgreSQL `C` collation, MySQL `utf8mb4_bin`), as in the SQLite original.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { Dialect, SchemaSnapshot, TableInfo, TypeKind } from '../../src/engine/datasources/schema';

export type Row = unknown[];

export interface Engine {
  readonly dialect: Dialect;
  run(sql: string, params: readonly unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

export interface ServerSettings {
  readonly pgUrl: string;
  readonly mysql: { host: string; port: number; user: string; password: string };
  readonly timeoutMs: number;
}

export const DEFAULT_SERVERS: ServerSettings = {
  pgUrl: process.env.ROUNDTRIP_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  mysql: {
    host: process.env.ROUNDTRIP_MYSQL_HOST ?? '127.0.0.1',
    port: Number(process.env.ROUNDTRIP_MYSQL_PORT ?? 3306),
    user: process.env.ROUNDTRIP_MYSQL_USER ?? 'root',
    password: process.env.ROUNDTRIP_MYSQL_PASSWORD ?? '',
  },
  timeoutMs: 20000,
};

/** Unique per run, so parallel runs never share a database. */
export function runPrefix(): string {
  return `rt_${process.pid}_${randomBytes(3).toString('hex')}`;
}

function readTable(db: Database.Database, t: TableInfo): Row[] {
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
  return db
    .prepare(`SELECT ${t.columns.map((c) => q(c.name)).join(', ')} FROM ${q(t.name)}`)
    .raw(true)
    .all() as Row[];
}

function convert(v: unknown, kind: TypeKind): unknown {
  if (v === null || v === undefined) return null;
  if (kind === 'text' || kind === 'other' || kind === 'date' || kind === 'timestamp' || kind === 'time') {
    return typeof v === 'string' ? v : Buffer.isBuffer(v) ? v.toString('utf8') : JSON.stringify(v);
  }
  if (kind === 'boolean') return v === 1 || v === true || v === '1';
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  return v;
}

/** Column types of the copied tables: only the names of the double and text types differ. */
const columnType =
  (double: string, text: string) =>
  (k: TypeKind): string =>
    k === 'integer'
      ? 'BIGINT'
      : k === 'float' || k === 'decimal'
        ? double
        : k === 'boolean'
          ? 'BOOLEAN'
          : text;

const TYPES: Record<'postgres' | 'mysql' | 'duckdb', (k: TypeKind) => string> = {
  postgres: columnType('DOUBLE PRECISION', 'TEXT'),
  mysql: columnType('DOUBLE', 'TEXT'),
  duckdb: columnType('DOUBLE', 'VARCHAR'),
};

interface Loaded {
  table: TableInfo;
  rows: Row[];
}

function readAll(sqlitePath: string, schema: SchemaSnapshot): Loaded[] {
  const db = new Database(sqlitePath, { readonly: true, fileMustExist: true });
  try {
    return schema.tables.map((t) => ({
      table: t,
      rows: readTable(db, t).map((r) => r.map((v, i) => convert(v, t.columns[i]!.kind))),
    }));
  } finally {
    db.close();
  }
}

export async function openSqlite(path: string): Promise<Engine> {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  return {
    dialect: 'sqlite',
    run: async (sql, params) =>
      db
        .prepare(sql)
        .raw(true)
        .all(...(params as unknown[])) as Row[],
    close: async () => void db.close(),
  };
}

export async function openDuckDb(sqlitePath: string, schema: SchemaSnapshot): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'roundtrip-duckdb-'));
  const instance = await DuckDBInstance.create(join(dir, 'data.duckdb'));
  const conn: DuckDBConnection = await instance.connect();
  for (const { table, rows } of readAll(sqlitePath, schema)) {
    const cols = table.columns.map((c) => `"${c.name.replace(/"/g, '""')}" ${TYPES.duckdb(c.kind)}`);
    await conn.run(`CREATE TABLE "${table.name}" (${cols.join(', ')})`);
    await insertBatches(rows, table.columns.length, 200, async (batch, n) => {
      let i = 0;
      const values = batch.map(() => `(${Array.from({ length: n }, () => `$${++i}`).join(', ')})`);
      await conn.run(`INSERT INTO "${table.name}" VALUES ${values.join(', ')}`, batch.flat() as any[]);
    });
  }
  return {
    dialect: 'duckdb',
    run: async (sql, params) => (await conn.runAndReadAll(sql, params as any[])).getRows(),
    close: async () => {
      conn.closeSync();
      instance.closeSync();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function insertBatches(
  rows: Row[],
  width: number,
  size: number,
  insert: (batch: Row[], width: number) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size), width);
}

export async function openPostgres(
  sqlitePath: string,
  schema: SchemaSnapshot,
  dbName: string,
  servers: ServerSettings,
): Promise<Engine> {
  const admin = new pg.Client({ connectionString: servers.pgUrl });
  await admin.connect();
  try {
    await admin.query(
      `CREATE DATABASE "${dbName}" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`,
    );
  } finally {
    await admin.end();
  }
  const url = new URL(servers.pgUrl);
  url.pathname = `/${dbName}`;
  const client = new pg.Client({
    connectionString: url.toString(),
    // Numbers as numbers: BIGINT (20) and NUMERIC (1700) arrive as strings by default.
    types: {
      getTypeParser: ((oid: number, format?: any) =>
        oid === 20 || oid === 1700 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as any,
    },
  });
  await client.connect();
  await client.query(`SET statement_timeout = ${servers.timeoutMs}`);
  for (const { table, rows } of readAll(sqlitePath, schema)) {
    const cols = table.columns.map((c) => `"${c.name.replace(/"/g, '""')}" ${TYPES.postgres(c.kind)}`);
    await client.query(`CREATE TABLE "${table.name}" (${cols.join(', ')})`);
    await insertBatches(rows, table.columns.length, 500, async (batch, n) => {
      let i = 0;
      const values = batch.map(() => `(${Array.from({ length: n }, () => `$${++i}`).join(', ')})`);
      await client.query(`INSERT INTO "${table.name}" VALUES ${values.join(', ')}`, batch.flat());
    });
  }
  return {
    dialect: 'postgres',
    run: async (sql, params) =>
      (await client.query({ text: sql, values: params as unknown[], rowMode: 'array' })).rows as Row[],
    close: async () => {
      await client.end();
      const a = new pg.Client({ connectionString: servers.pgUrl });
      await a.connect();
      try {
        await a.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
      } finally {
        await a.end();
      }
    },
  };
}

export async function openMysql(
  sqlitePath: string,
  schema: SchemaSnapshot,
  dbName: string,
  servers: ServerSettings,
): Promise<Engine> {
  const conn = await mysql.createConnection({
    ...servers.mysql,
    decimalNumbers: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
    multipleStatements: false,
  });
  // NO PAD: trailing spaces count, as in SQLite (MariaDB's utf8mb4_bin ignores them).
  await conn
    .query(`CREATE DATABASE \`${dbName}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin`)
    .catch(() => conn.query(`CREATE DATABASE \`${dbName}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_bin`));
  await conn.query(`USE \`${dbName}\``);
  await conn.query(`SET SESSION max_statement_time = ${servers.timeoutMs / 1000}`).catch(() => undefined);
  for (const { table, rows } of readAll(sqlitePath, schema)) {
    const cols = table.columns.map((c) => `\`${c.name.replace(/`/g, '``')}\` ${TYPES.mysql(c.kind)}`);
    await conn.query(`CREATE TABLE \`${table.name}\` (${cols.join(', ')})`);
    await insertBatches(rows, table.columns.length, 500, async (batch) => {
      await conn.query(`INSERT INTO \`${table.name}\` VALUES ?`, [batch]);
    });
  }
  return {
    dialect: 'mysql',
    run: async (sql, params) => {
      const [rows] = await conn.query({ sql, values: params as unknown[], rowsAsArray: true });
      return rows as Row[];
    },
    close: async () => {
      try {
        await conn.query(`DROP DATABASE IF EXISTS \`${dbName}\``);
      } finally {
        await conn.end();
      }
    },
  };
}
