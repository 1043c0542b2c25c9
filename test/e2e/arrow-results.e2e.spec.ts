/**
 * `GET /api/v1/query/{request_id}/results/{result_id}.arrow` (issue 31): a result of each of the
 * four engines, with a column of every type, is read back with apache-arrow's reader and compared
 * value by value with its Parquet artifact; the route keeps the 401/404 rules of the other result
 * routes; a download the client leaves releases the file and its connections.
 */
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import knex from 'knex';
import * as P from '../../src/engine/plan/build';
import { arrowAgainstParquet } from '../support/arrow-compare';
import { startApp, type RunningApp } from '../support/app';
import { FakeModelServer } from '../support/fake-model';
import { openFilesUnder } from '../support/open-files';
import { http } from '../support/http';
import { PipelineModel, questionOf } from '../support/pipeline-model';

jest.setTimeout(120_000);

const COLUMNS = ['id', 'big', 'price', 'ratio', 'ok', 'day', 'made_at', 'paid_at', 'label'];
const BIG_ROWS = 300_000;

/** Each engine's declared types for COLUMNS, in order. */
const DDL: Record<string, string[]> = {
  pg: [
    'INTEGER',
    'BIGINT',
    'NUMERIC(14,2)',
    'DOUBLE PRECISION',
    'BOOLEAN',
    'DATE',
    'TIMESTAMP',
    'TIMESTAMPTZ',
    'TEXT',
  ],
  my: [
    'INT',
    'BIGINT',
    'DECIMAL(14,2)',
    'DOUBLE',
    'BOOLEAN',
    'DATE',
    'DATETIME(6)',
    'TIMESTAMP(6) NULL',
    'VARCHAR(64)',
  ],
  duck: [
    'INTEGER',
    'BIGINT',
    'DECIMAL(14,2)',
    'DOUBLE',
    'BOOLEAN',
    'DATE',
    'TIMESTAMP',
    'TIMESTAMPTZ',
    'VARCHAR',
  ],
  lite: ['INTEGER', 'INTEGER', 'DECIMAL(14,2)', 'REAL', 'BOOLEAN', 'DATE', 'TIMESTAMP', 'TIMESTAMP', 'TEXT'],
};

/** Rows as SQL literals per engine: instants are written in UTC (the sessions below run in UTC). */
function rows(engine: string): string[] {
  const bool = (b: boolean) => (engine === 'lite' ? (b ? '1' : '0') : b ? 'TRUE' : 'FALSE');
  const instant = (t: string) => (engine === 'lite' ? `'${t.replace(' ', 'T')}Z'` : `'${t}'`);
  return [
    `(1, 9007199254740993, 12345.67, 0.25, ${bool(true)}, '2024-02-29', '2024-01-02 03:04:05.123456', ${instant('2024-01-02 03:04:05.5')}, 'naïve 🚀')`,
    `(2, -9223372036854775807, -0.05, -1.5e300, ${bool(false)}, '1970-01-01', '1999-12-31 23:59:59', ${instant('2000-06-01 10:00:00')}, '')`,
    '(3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)',
  ];
}

const createTable = (engine: string) =>
  `CREATE TABLE typed (${COLUMNS.map((c, i) => `${c} ${DDL[engine]![i]}`).join(', ')})`;
const insert = (engine: string) => `INSERT INTO typed VALUES ${rows(engine).join(', ')}`;

const unique = (prefix: string) => `${prefix}_${process.pid}_${Date.now().toString(36)}`;

/** A `GET` whose body is kept as bytes (the shared helper reads text). */
function getBytes(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }),
      );
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

let fake: FakeModelServer;
let app: RunningApp;
const pgDb = unique('nl2sql_arrow');
const myDb = unique('nl2sql_arrow');
const pgAdmin = knex({
  client: 'pg',
  connection: { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' },
});
const myAdmin = knex({
  client: 'mysql2',
  connection: { host: '127.0.0.1', port: 3306, user: 'root', password: '' },
});
const ROLE = { 'X-Roles': 'analyst' };

beforeAll(async () => {
  fake = await FakeModelServer.start();
  const dir = mkdtempSync(join(tmpdir(), 'nl2sql-arrow-e2e-'));

  await pgAdmin.raw(`CREATE DATABASE ${pgDb}`);
  const pg = knex({
    client: 'pg',
    connection: { host: '127.0.0.1', port: 5432, user: 'postgres', database: pgDb },
  });
  await pg.raw(createTable('pg'));
  await pg.raw(`SET TimeZone = 'UTC'; ${insert('pg')}`);
  await pg.destroy();

  await myAdmin.raw(`CREATE DATABASE ${myDb}`);
  const my = knex({
    client: 'mysql2',
    connection: { host: '127.0.0.1', port: 3306, user: 'root', password: '', database: myDb, timezone: 'Z' },
  });
  await my.raw(createTable('my'));
  await my.transaction(async (trx) => {
    await trx.raw(`SET time_zone = '+00:00'`);
    await trx.raw(insert('my'));
  });
  await my.destroy();

  const duckPath = join(dir, 'typed.duckdb');
  const duck = await DuckDBInstance.create(duckPath);
  const conn = await duck.connect();
  await conn.run(`SET TimeZone = 'UTC'`);
  await conn.run(createTable('duck'));
  await conn.run(insert('duck'));
  await conn.run(
    `CREATE TABLE big AS SELECT range AS n, 'row number ' || range AS label FROM range(${BIG_ROWS})`,
  );
  conn.closeSync();
  duck.closeSync();

  const litePath = join(dir, 'typed.sqlite');
  const lite = new Database(litePath);
  lite.exec(`${createTable('lite')}; ${insert('lite')};`);
  lite.close();

  app = await startApp({
    api: { role_header: 'X-Roles' },
    datasources: [
      {
        id: 'pg',
        type: 'postgres',
        connection: { host: '127.0.0.1', port: 5432, user: 'postgres', database: pgDb },
      },
      {
        id: 'my',
        type: 'mysql',
        connection: { host: '127.0.0.1', port: 3306, user: 'root', database: myDb },
      },
      { id: 'duck', type: 'duckdb', connection: { path: duckPath }, limits: { row_cap: 1_000_000 } },
      { id: 'lite', type: 'sqlite', connection: { path: litePath } },
    ],
    llm: { provider: 'openai_compatible', model: 'fake-model', base_url: fake.openaiBaseUrl },
    settings: { pipeline: { plan_cache_size: 0 } },
  });
  const typed = P.query(P.select({ columns: COLUMNS.map((c) => P.col(c)), from: P.table('typed') }), {
    orderBy: [P.order(P.col('id'))],
  });
  const big = P.query(P.select({ columns: [P.col('n'), P.col('label')], from: P.table('big') }), {
    orderBy: [P.order(P.col('n'))],
  });
  // The question names its datasource ("... on duck") and whether it wants the big table.
  const target = (req: Parameters<typeof questionOf>[0]) => /on (\w+)/.exec(questionOf(req))?.[1] ?? 'duck';
  new PipelineModel(fake)
    .on('route_question', (req) => ({ json: { datasource_id: target(req), reason: 'test' } }))
    .on('decompose_question', (req) => ({
      json: { sub_queries: [{ intent: questionOf(req), datasource_id: target(req) }] },
    }))
    .on('query_plan', (req) => ({
      json: { plan: /every row/i.test(questionOf(req)) ? big : typed, unanswerable_reason: null },
    }))
    .on('answer', { text: 'Here it is.' });
});

afterAll(async () => {
  await app?.close();
  await fake?.close();
  await pgAdmin.raw(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ?`, [pgDb]);
  await pgAdmin.raw(`DROP DATABASE IF EXISTS ${pgDb}`);
  await myAdmin.raw(`DROP DATABASE IF EXISTS ${myDb}`);
  await pgAdmin.destroy();
  await myAdmin.destroy();
});

/** Asks for the typed table on one datasource; the path of its result routes and its Parquet file. */
async function ask(question: string, datasource: string): Promise<{ route: string; parquet: string }> {
  const body = (
    await http('POST', `${app.url}/api/v1/query`, {
      body: { natural_language: question, datasource_id: datasource },
      headers: ROLE,
    })
  ).json();
  expect(body.errors).toEqual([]);
  const resultId = body.sub_queries[0].id as string;
  return {
    route: `${app.url}/api/v1/query/${body.trace_id}/results/${resultId}`,
    parquet: fileURLToPath(body.artifact_refs[resultId].uri),
  };
}

const TYPES = {
  id: 'Int64',
  big: 'Int64',
  price: 'Decimal[38e+2]',
  ratio: 'Float64',
  ok: 'Bool',
  day: 'Date32<DAY>',
  made_at: 'Timestamp<MICROSECOND>',
  paid_at: 'Timestamp<MICROSECOND, UTC>',
  label: 'Utf8',
};

it.each([
  ['pg', TYPES],
  // MySQL's BOOLEAN is TINYINT(1): the result (and its Parquet file) hold an integer.
  ['my', { ...TYPES, ok: 'Int64' }],
  ['duck', TYPES],
  // SQLite keeps a BOOLEAN as 0/1: the result is stored as the integers it returned (stored-kinds.ts).
  ['lite', { ...TYPES, ok: 'Int64' }],
])(
  'sends a result of %s with every column typed, each value equal to the Parquet artifact',
  async (ds, types) => {
    const { route, parquet } = await ask(`Every typed value on ${ds}`, ds);
    const res = await getBytes(`${route}.arrow`, ROLE);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.apache.arrow.stream');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[\w-]+_[\w-]+\.arrows"$/);
    const back = await arrowAgainstParquet(res.body, parquet);
    expect(back.mismatches).toEqual([]);
    expect(back.rows).toBe(3);
    expect(back.types).toEqual(types);
    // The JSON page of the same result shows the same values the stream carried.
    const page = (await http('GET', `${route}?limit=3`, { headers: ROLE })).json();
    expect(page.rows[0][0]).toBe(1);
    expect(page.rows[2].slice(1)).toEqual(COLUMNS.slice(1).map(() => null));
  },
);

it('keeps the 401 and 404 rules of the other result routes', async () => {
  const { route } = await ask('Every typed value on duck', 'duck');
  expect((await getBytes(`${route}.arrow`, {})).status).toBe(401);
  const base = `${app.url}/api/v1/query`;
  for (const path of [
    `${base}/0123456789abcdef/results/sq1.arrow`,
    `${route.replace(/\/results\/.*$/, '/results/sq9')}.arrow`,
    `${base}/..%2F..%2Fetc/results/sq1.arrow`,
  ]) {
    const res = await getBytes(path, ROLE);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body.toString('utf8'))).toEqual({
      detail: 'Result not found',
      error_code: 'NOT_FOUND',
    });
  }
});

it('lets go of the file and its connections when the client leaves mid-download, and sends it whole after', async () => {
  const { route, parquet } = await ask('Every row of big on duck', 'duck');
  const results = parquet.slice(0, parquet.indexOf('/default/'));
  for (let i = 0; i < 3; i++) {
    await new Promise<void>((resolve) => {
      const req = request(`${route}.arrow`, { headers: ROLE }, (res) => {
        expect(res.statusCode).toBe(200);
        res.once('data', () => {
          req.destroy();
          resolve();
        });
        res.on('error', () => undefined);
      });
      req.on('error', () => undefined);
      req.end();
    });
  }
  let open = openFilesUnder(results);
  for (let i = 0; i < 100 && open.length; i++) {
    await new Promise((r) => setTimeout(r, 50));
    open = openFilesUnder(results);
  }
  expect(open).toEqual([]);
  const whole = await getBytes(`${route}.arrow`, ROLE);
  const back = await arrowAgainstParquet(whole.body, parquet);
  expect(back.mismatches).toEqual([]);
  expect(back.rows).toBe(BIG_ROWS);
  expect(back.batches).toBeGreaterThan(1);
});
