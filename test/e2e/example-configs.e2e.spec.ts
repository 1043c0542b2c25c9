/**
 * Every file in config/ boots: loaded the way `NL2SQL_CONFIG=config/<file> npm start` loads it
 * (relative paths from its own folder, a copy placed in a temp tree shaped like the repository),
 * against the loopback PostgreSQL and MariaDB with databases seeded from config/seed/, the files
 * docker-compose.yml seeds its services from. Each must be ready with every datasource, and its
 * index must hold the seeded tables. docker-compose.yml is checked against compose.yaml, since
 * Docker itself is not available here.
 */
import { linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, resolve } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import mysql from 'mysql2/promise';
import { parse, stringify } from 'yaml';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/config/loader';
import { EXAMPLE_ROWS, EXAMPLE_SQL, QUERY_RESPONSE_EXAMPLE } from '../../src/api/query/query.examples';
import { ensureDemoDatabase } from '../../src/demo';
import { dropDatabase, SEEDS, seedMysql, seedPostgres, seedSqlite } from '../support/example-seeds';
import { http } from '../support/http';

const ROOT = resolve(__dirname, '..', '..');
const CONFIG_DIR = join(ROOT, 'config');
const unique = (prefix: string) => `${prefix}_${process.pid}_${Date.now().toString(36)}`;
const shopDb = unique('nl2sql_ex_shop');
const crmDb = unique('nl2sql_ex_crm');
const shopUrl = `postgres://postgres@127.0.0.1:5432/${shopDb}`;
const crmUrl = `mysql://root@127.0.0.1:3306/${crmDb}`;
// The loopback MariaDB's root has no password, and a config's password reference must resolve to
// one: the configs read crm as a user that may only SELECT, as the README advises.
const crmReader = { user: unique('nl2sql_ro').slice(0, 32), password: `pw-${process.pid}-${Date.now()}` };
let demoCache: string;

async function asMysqlRoot(sql: string[]) {
  const conn = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', password: '' });
  try {
    for (const statement of sql) await conn.query(statement);
  } finally {
    await conn.end();
  }
}

beforeAll(async () => {
  // One demo database for every config that serves it (built once, linked into each tree).
  demoCache = join(mkdtempSync(join(tmpdir(), 'nl2sql-demo-cache-')), 'demo.duckdb');
  await ensureDemoDatabase(demoCache);
  await seedPostgres(shopUrl);
  await seedMysql(crmUrl);
  await asMysqlRoot([
    `CREATE USER '${crmReader.user}'@'%' IDENTIFIED BY '${crmReader.password}'`,
    `GRANT SELECT, SHOW VIEW ON \`${crmDb}\`.* TO '${crmReader.user}'@'%'`,
  ]);
}, 180_000);

afterAll(async () => {
  await asMysqlRoot([`DROP USER IF EXISTS '${crmReader.user}'@'%'`]);
  await dropDatabase(shopUrl);
  await dropDatabase(crmUrl);
});

/**
 * What differs from the shipped file when it runs here: the servers are on loopback (not the
 * compose services `postgres` and `mysql`), the databases have unique names, crm is read by the
 * SELECT-only user. Everything else is the file as shipped.
 */
function onLocalServers(text: string): string {
  const config = parse(text);
  for (const ds of config.datasources as { type: string; connection: Record<string, unknown> }[]) {
    if (ds.type === 'postgres') Object.assign(ds.connection, { host: '127.0.0.1', database: shopDb });
    if (ds.type === 'mysql')
      Object.assign(ds.connection, { host: '127.0.0.1', database: crmDb, user: crmReader.user });
  }
  return stringify(config);
}
const localEnv = { PG_PASSWORD: 'unused-on-a-trust-server', MYSQL_PASSWORD: crmReader.password };

/** A temp tree shaped like the repository: config/<file> (optionally edited) and data/demo. */
function repoLikeTree(file: string, edit: (text: string) => string = (t) => t): string {
  const root = mkdtempSync(join(tmpdir(), 'nl2sql-example-'));
  mkdirSync(join(root, 'config'));
  writeFileSync(join(root, 'config', file), edit(readFileSync(join(CONFIG_DIR, file), 'utf8')));
  mkdirSync(join(root, 'data', 'demo'), { recursive: true });
  linkSync(demoCache, join(root, 'data', 'demo', 'demo.duckdb'));
  return root;
}

/** Boots the service as main.ts does (loadConfig, then the app) and indexes every datasource. */
async function boot(cwd: string, env: NodeJS.ProcessEnv, roles: Record<string, string>) {
  const { NL2SQL_CONFIG: _unset, OPENAI_API_KEY: _none, ...base } = process.env;
  const fullEnv = { ...base, ...env };
  const loaded = loadConfig(fullEnv, cwd);
  const app = await createApp(loaded.config, { env: fullEnv, source: loaded.path });
  try {
    await app.listen(0, '127.0.0.1');
    const url = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
    const ready = await http('GET', `${url}/ready`);
    const indexed = await http('POST', `${url}/api/v1/index-all`, { headers: roles });
    const tables = Object.fromEntries(
      (
        indexed.json().indexing_results.stats as { datasource_id: string; counts: Record<string, number> }[]
      ).map((s) => [s.datasource_id, s.counts['schema.table']]),
    );
    return { loaded, ready: ready.json(), readyStatus: ready.status, indexed: indexed.json(), tables };
  } finally {
    await app.close();
  }
}

const allReady = (ids: string[]) => ({
  status: 'ready',
  datasources: ids.map((id) => ({ id, status: 'ready', reason: null })),
});

it('has a boot test for every file in config/', () => {
  const files = readdirSync(CONFIG_DIR).filter((f) => /\.ya?ml$/.test(f));
  expect(files.sort()).toEqual([
    'compose.yaml',
    'embedded-default.yaml',
    'multi-datasource.yaml',
    'postgres.yaml',
  ]);
});

it('embedded-default.yaml: the demo, paths relative to the working directory, static admin role', async () => {
  const root = repoLikeTree('embedded-default.yaml');
  const run = await boot(root, {}, {});
  expect(run.loaded.embeddedDefault).toBe(true);
  expect(run.readyStatus).toBe(200);
  expect(run.ready).toMatchObject(allReady(['demo']));
  expect(run.tables).toEqual({ demo: 11 });
  expect(run.loaded.config.storage.results.path).toBe(join(root, 'data', 'results'));
}, 120_000);

it('postgres.yaml: one PostgreSQL datasource seeded from config/seed/shop.postgres.sql', async () => {
  const database = new URL(shopUrl).pathname.slice(1);
  const root = repoLikeTree('postgres.yaml', (text) =>
    text.replace('database: shop', `database: ${database}`),
  );
  const run = await boot(
    root,
    { NL2SQL_CONFIG: join(root, 'config', 'postgres.yaml'), PG_PASSWORD: 'unused-on-a-trust-server' },
    { 'X-Roles': 'admin' },
  );
  expect(run.ready).toMatchObject(allReady(['shop']));
  expect(run.tables).toEqual({ shop: 4 });
  expect(run.loaded.config.storage.traces.path).toBe(join(root, 'data', 'traces'));
}, 120_000);

it('multi-datasource.yaml: demo, SQLite, PostgreSQL and MariaDB with a cost cap, all ready', async () => {
  const root = repoLikeTree('multi-datasource.yaml', onLocalServers);
  // What `npm run seed:examples` creates beside the demo.
  seedSqlite(join(root, 'data', 'inventory.sqlite'));
  const run = await boot(
    root,
    { NL2SQL_CONFIG: join(root, 'config', 'multi-datasource.yaml'), ...localEnv },
    { 'X-Roles': 'admin' },
  );
  expect(run.ready).toMatchObject(allReady(['demo', 'inventory', 'shop', 'crm']));
  expect(run.tables).toEqual({ demo: 11, inventory: 3, shop: 4, crm: 4 });
  expect(run.loaded.config.settings.pipeline.max_cost_usd).toBe(0.5);
  expect(run.loaded.config.datasources[0]!.connection.path).toBe(join(root, 'data', 'demo', 'demo.duckdb'));
}, 120_000);

it('compose.yaml: the service as docker-compose.yml runs it, against the local servers', async () => {
  const root = repoLikeTree('compose.yaml', onLocalServers);
  // The environment docker-compose.yml gives the service, bar the passwords.
  const { nl2sql } = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')).services;
  const env = { ...nl2sql.environment, ...localEnv, NL2SQL_CONFIG: join(root, 'config', 'compose.yaml') };
  delete env.OPENAI_API_KEY;
  const run = await boot(root, env, { 'X-Roles': 'admin' });
  expect(run.ready).toMatchObject(allReady(['demo', 'shop', 'crm']));
  expect(run.tables).toEqual({ demo: 11, shop: 4, crm: 4 });
}, 120_000);

it('docker-compose.yml seeds from the same files, gives compose.yaml every variable it reads, keeps data in its volumes', () => {
  const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'));
  const text = readFileSync(join(CONFIG_DIR, 'compose.yaml'), 'utf8');
  const config = parse(text);
  const service = compose.services.nl2sql;
  const appConfig: string = service.environment.NL2SQL_CONFIG;
  expect(appConfig).toBe('/app/config/compose.yaml');

  // Every ${env:NAME} of compose.yaml is set by the service.
  const wanted = [...text.matchAll(/\$\{env:([A-Z0-9_]+)\}/g)].map((m) => m[1]);
  expect(wanted.sort()).toEqual(['MYSQL_PASSWORD', 'PG_PASSWORD']);
  for (const name of wanted) expect(Object.keys(service.environment)).toContain(name);

  // The datasources name the database services and the databases their images create and seed.
  const server = (type: string) =>
    config.datasources.find((d: { type: string }) => d.type === type).connection as Record<string, unknown>;
  expect([server('postgres').host, server('postgres').database]).toEqual([
    'postgres',
    compose.services.postgres.environment.POSTGRES_DB,
  ]);
  expect([server('mysql').host, server('mysql').database]).toEqual([
    'mysql',
    compose.services.mysql.environment.MARIADB_DATABASE,
  ]);
  expect(service.environment.PG_PASSWORD).toBe(compose.services.postgres.environment.POSTGRES_PASSWORD);
  expect(service.environment.MYSQL_PASSWORD).toBe(compose.services.mysql.environment.MARIADB_ROOT_PASSWORD);
  const initScript = (svc: { volumes: string[] }) =>
    svc.volumes.find((v) => v.includes('/docker-entrypoint-initdb.d/'))!.split(':')[0]!;
  expect(resolve(ROOT, initScript(compose.services.postgres))).toBe(SEEDS.shop);
  expect(resolve(ROOT, initScript(compose.services.mysql))).toBe(SEEDS.crm);
  for (const db of ['postgres', 'mysql']) {
    const named = (compose.services[db].volumes as string[]).find((v) => !v.startsWith('./'))!;
    expect(Object.keys(compose.volumes)).toContain(named.split(':')[0]);
  }

  // Everything the service writes lands in the nl2sql-data volume.
  const mount = (service.volumes as string[]).find((v) => v.startsWith('nl2sql-data:'))!.split(':')[1]!;
  const inImage = (p: string) => posix.resolve(posix.dirname(appConfig), p);
  const written = [
    config.datasources.find((d: { id: string }) => d.id === 'demo').connection.path,
    config.storage.results.path,
    config.storage.traces.path,
    config.storage.index.path,
  ].map(inImage);
  for (const path of written) expect(path.startsWith(`${mount}/`)).toBe(true);

  // The image holds config/ (with the seeds) where NL2SQL_CONFIG points.
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  expect(dockerfile).toMatch(/^WORKDIR \/app$/m);
  expect(dockerfile).toMatch(/^COPY config \.\/config$/m);
});

it("the OpenAPI examples' SQL runs on the demo database and returns the example's rows", async () => {
  expect(QUERY_RESPONSE_EXAMPLE.sub_queries[0]!.sql).toBe(EXAMPLE_SQL);
  const instance = await DuckDBInstance.create(demoCache, { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  try {
    const rows = (await conn.runAndReadAll(EXAMPLE_SQL)).getRowsJson();
    expect(rows.map(([region, revenue]) => [region, Number(revenue)])).toEqual(EXAMPLE_ROWS);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
});
