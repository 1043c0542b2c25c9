/**
 * `npm run bench -- soak [--minutes 10] [--clients 16] [--model-latency-ms 300] [--fault-every-s 120] [--json OUT]`
 *
 * Steady load on the real service (SQLite, PostgreSQL and MariaDB datasources on this machine, a
 * fake model answering after --model-latency-ms), with a fault injected every --fault-every-s
 * seconds, in turn: a MariaDB connection killed, a CSV download abandoned after its first bytes, a
 * stream dropped mid-run. Reports, after a warm-up and at the end: resident memory, open file
 * descriptors, server connections of the datasources, and the service's files in the temp folder.
 * Target: all four flat (within 10 %) over 10 minutes.
 */
import { readdirSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { Client } from 'pg';
import type { BenchArgs } from '../index';
import { rootLogger } from '../../src/engine/logging/logger';
import { makeSqliteFixture, startApp, type RunningApp } from '../../test/support/app';
import { shopOn, type ShopDatasource } from '../../test/support/databases';
import { FakeModelServer } from '../../test/support/fake-model';
import { stepOf } from '../../test/support/pipeline-model';

export interface SoakOptions {
  readonly minutes: number;
  readonly clients?: number;
  readonly modelLatencyMs?: number;
  readonly faultEveryS?: number;
}

export interface SoakSample {
  rss_mb: number;
  /** V8 heap in use, after a full collection when the process runs with --expose-gc. */
  heap_used_mb: number;
  open_fds: number;
  db_connections: number;
  temp_files_mb: number;
}

export interface SoakFigures {
  suite: 'soak';
  minutes: number;
  clients: number;
  model_latency_ms: number;
  runs: number;
  runs_failed: number;
  faults: { killed_connection: number; abandoned_csv: number; abandoned_stream: number };
  start: SoakSample;
  end: SoakSample;
  /** end / start per figure (1 is flat). */
  growth: Record<keyof SoakSample, number>;
  flat_within_10_percent: boolean;
}

export async function run(args: BenchArgs): Promise<object> {
  const o = args.options;
  const num = (v: unknown, d: number) =>
    typeof v === 'string' && Number.isFinite(Number(v)) ? Number(v) : d;
  if (!o.log) rootLogger.level = 'warn';
  const figures = await runSoak({
    minutes: num(o.minutes, 10),
    clients: num(o.clients, 16),
    modelLatencyMs: num(o['model-latency-ms'], 300),
    faultEveryS: num(o['fault-every-s'], 120),
  });
  console.log(JSON.stringify(figures, null, 2));
  return figures;
}

export async function runSoak(opts: SoakOptions): Promise<SoakFigures> {
  const clients = opts.clients ?? 16;
  const latency = opts.modelLatencyMs ?? 300;
  const fake = await FakeModelServer.start({ record: false });
  fake.onRequest((req) => {
    const step = stepOf(req);
    const table = /\bmy\b|customers/.test(JSON.stringify(req.body?.messages ?? '')) ? 'customers' : 'orders';
    if (step === 'sql_draft')
      return {
        json: { sql: `SELECT * FROM ${table} ORDER BY id`, unanswerable_reason: null },
        delayMs: latency,
      };
    return { text: 'Here are the rows.', delayMs: latency };
  });
  const pg = await shopOn('postgres', 'pg');
  const my = await shopOn('mysql', 'my');
  let app: RunningApp | null = null;
  try {
    app = await startApp({
      api: { role: 'analyst' },
      datasources: [
        { id: 'lite', type: 'sqlite', connection: { path: makeSqliteFixture() } },
        { ...pg.config, connection: { ...(pg.config.connection as object), pool_max: 4 } },
        { ...my.config, connection: { ...(my.config.connection as object), pool_max: 4 } },
      ],
      llm: {
        provider: 'openai_compatible',
        model: 'soak',
        base_url: fake.openaiBaseUrl,
        api_key: 'k',
        planner_format: 'sql',
      },
      settings: { pipeline: { plan_cache_size: 0 } },
    });
    const url = app.url;
    const databases = [dbName(pg), dbName(my)];
    const ask = (ds: string) =>
      post(url, '/api/v1/query', { natural_language: `List the rows of ${ds}`, datasource_id: ds });

    let runs = 0;
    let failed = 0;
    let stop = false;
    const worker = async (i: number) => {
      const ds = ['lite', 'pg', 'my'][i % 3]!;
      while (!stop) {
        const res = await ask(ds).catch(() => null);
        runs++;
        if (!res || res.status !== 200 || !res.body.includes('"status":"success"')) failed++;
      }
    };
    // Warm-up, then the start sample.
    const warm = Array.from({ length: clients }, (_, i) => worker(i));
    await sleep(Math.min(20_000, opts.minutes * 60_000 * 0.2));
    const start = await sample(databases);
    const faults = { killed_connection: 0, abandoned_csv: 0, abandoned_stream: 0 };
    const until = Date.now() + opts.minutes * 60_000;
    const every = Math.max(1, opts.faultEveryS ?? 120) * 1000;
    let next = 0;
    while (Date.now() < until) {
      const fault = next++ % 3;
      if (fault === 0 && (await killMysqlConnection(dbName(my)))) faults.killed_connection++;
      if (fault === 1 && (await abandonCsv(url))) faults.abandoned_csv++;
      if (fault === 2 && (await abandonStream(url))) faults.abandoned_stream++;
      await sleep(Math.min(every, Math.max(0, until - Date.now())));
    }
    stop = true;
    await Promise.all(warm);
    await sleep(500);
    const end = await sample(databases);
    const growth = Object.fromEntries(
      (Object.keys(start) as (keyof SoakSample)[]).map((k) => [
        k,
        start[k] ? Math.round((end[k] / start[k]) * 1000) / 1000 : end[k] ? Infinity : 1,
      ]),
    ) as Record<keyof SoakSample, number>;
    const flat = (Object.keys(start) as (keyof SoakSample)[]).every(
      (k) =>
        end[k] <= start[k] * 1.1 || end[k] - start[k] < (k === 'temp_files_mb' ? 1 : k === 'rss_mb' ? 5 : 2),
    );
    return {
      suite: 'soak',
      minutes: opts.minutes,
      clients,
      model_latency_ms: latency,
      runs,
      runs_failed: failed,
      faults,
      start,
      end,
      growth,
      flat_within_10_percent: flat,
    };
  } finally {
    await app?.close();
    await fake.close();
    await pg.drop();
    await my.drop();
  }
}

const dbName = (ds: ShopDatasource) => String((ds.config.connection as { database: string }).database);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function sample(databases: readonly string[]): Promise<SoakSample> {
  const pgAdmin = new Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
  await pgAdmin.connect();
  const myAdmin = await createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
  try {
    const p = await pgAdmin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = ANY($1)', [
      [...databases],
    ]);
    const [m] = await myAdmin.query(
      'SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB IN (?)',
      [[...databases]],
    );
    let tempBytes = 0;
    for (const f of readdirSync(tmpdir()))
      if (f.startsWith('nl2sql-csv-')) tempBytes += statSync(join(tmpdir(), f)).size;
    (globalThis as { gc?: () => void }).gc?.();
    return {
      rss_mb: Math.round(process.memoryUsage.rss() / 2 ** 20),
      heap_used_mb: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
      open_fds: readdirSync('/proc/self/fd').length,
      db_connections: Number(p.rows[0].n) + Number((m as { n: number }[])[0]!.n),
      temp_files_mb: Math.round((tempBytes / 2 ** 20) * 10) / 10,
    };
  } finally {
    await pgAdmin.end();
    await myAdmin.end();
  }
}

async function killMysqlConnection(database: string): Promise<boolean> {
  const admin = await createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
  try {
    const [rows] = await admin.query(
      'SELECT ID FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> CONNECTION_ID() ORDER BY TIME DESC LIMIT 1',
      [database],
    );
    const id = (rows as { ID: number }[])[0]?.ID;
    if (id === undefined) return false;
    await admin.query(`KILL ${Number(id)}`);
    return true;
  } finally {
    await admin.end();
  }
}

function post(url: string, path: string, body: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(
      new URL(path, url),
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function abandonCsv(url: string): Promise<boolean> {
  const res = await post(url, '/api/v1/query', {
    natural_language: 'List the rows of pg',
    datasource_id: 'pg',
  });
  const body = JSON.parse(res.body) as { trace_id: string; sub_queries: { id: string }[] };
  if (!body.sub_queries[0]) return false;
  await new Promise<void>((resolve) => {
    const req = request(
      new URL(`/api/v1/query/${body.trace_id}/results/${body.sub_queries[0]!.id}.csv`, url),
      (r) => {
        r.once('data', () => (req.destroy(), resolve()));
        r.on('end', resolve);
        r.on('error', () => resolve());
      },
    );
    req.on('error', () => resolve());
    req.end();
  });
  return true;
}

async function abandonStream(url: string): Promise<boolean> {
  const payload = JSON.stringify({ natural_language: 'List the rows of my', datasource_id: 'my' });
  await new Promise<void>((resolve) => {
    const req = request(
      new URL('/api/v1/query/stream', url),
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (r) => {
        r.once('data', () => (req.destroy(), resolve()));
        r.on('end', resolve);
        r.on('error', () => resolve());
      },
    );
    req.on('error', () => resolve());
    req.end(payload);
  });
  return true;
}
