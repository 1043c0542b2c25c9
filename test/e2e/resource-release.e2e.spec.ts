/**
 * Nothing held after a fault (issue 19): after streams dropped at every point of a run, result
 * pages and CSV downloads abandoned mid-answer, the service holds no more server connections per
 * datasource than its pool_max, no scratch files, and its pools answer the next query at once.
 */
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { createConnection } from 'mysql2/promise';
import { Client } from 'pg';
import * as P from '../../src/engine/plan/build';
import { startApp, type RunningApp } from '../support/app';
import { shopOn, type ShopDatasource } from '../support/databases';
import { FakeModelServer } from '../support/fake-model';
import { http } from '../support/http';
import { PipelineModel } from '../support/pipeline-model';
import { openSse } from '../support/sse';

jest.setTimeout(120_000);

const POOL_MAX = 2;
let fake: FakeModelServer;
let app: RunningApp;
let pg: ShopDatasource;
let my: ShopDatasource;

const database = (ds: ShopDatasource) => String((ds.config.connection as { database: string }).database);

async function serverConnections(): Promise<{ pg: number; mysql: number }> {
  const pgAdmin = new Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
  await pgAdmin.connect();
  const myAdmin = await createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
  try {
    const p = await pgAdmin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [
      database(pg),
    ]);
    const [m] = await myAdmin.query('SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ?', [
      database(my),
    ]);
    return { pg: Number(p.rows[0].n), mysql: Number((m as { n: number }[])[0]!.n) };
  } finally {
    await pgAdmin.end();
    await myAdmin.end();
  }
}

const scratch = () => readdirSync(tmpdir()).filter((f) => f.startsWith('nl2sql-csv-'));

function abandon(path: string, afterBytes: boolean): Promise<void> {
  return new Promise((resolve) => {
    const req = request(new URL(path, app.url), (res) => {
      if (!afterBytes) return (req.destroy(), resolve());
      res.once('data', () => {
        req.destroy();
        resolve();
      });
      res.on('end', resolve);
      res.on('error', () => resolve());
    });
    req.on('error', () => resolve());
    req.end();
    if (!afterBytes) setImmediate(() => (req.destroy(), resolve()));
  });
}

beforeAll(async () => {
  fake = await FakeModelServer.start();
  pg = await shopOn('postgres', 'pg');
  my = await shopOn('mysql', 'my');
  const pooled = (ds: ShopDatasource) => ({
    ...ds.config,
    connection: { ...(ds.config.connection as object), pool_max: POOL_MAX },
  });
  app = await startApp({
    api: { role: 'analyst' },
    datasources: [pooled(pg), pooled(my)],
    llm: { provider: 'openai_compatible', model: 'fake-model', base_url: fake.openaiBaseUrl, api_key: 'k' },
    settings: { pipeline: { plan_cache_size: 0 } },
  });
  const plan = P.query(P.select({ columns: [P.col('id'), P.col('amount')], from: P.table('orders') }), {
    orderBy: [P.order(P.col('id'))],
  });
  new PipelineModel(fake)
    .on('route_question', (req) => ({
      json: { datasource_id: /mysql/i.test(JSON.stringify(req.body)) ? 'my' : 'pg', reason: 'test' },
    }))
    .on('query_plan', { json: { plan, unanswerable_reason: null }, delayMs: 30 })
    .on('answer', { text: 'Three orders.', delayMs: 30 });
});
afterAll(async () => {
  await app?.close();
  await fake?.close();
  await pg?.drop();
  await my?.drop();
});

it('holds no more than pool_max connections, no scratch file, and answers at once after abandoned work', async () => {
  // Streams dropped at every step of a run, on both server datasources.
  const steps = ['run.started', 'node.started', 'node.finished', 'result.manifest', 'answer.delta'];
  for (const ds of ['pg', 'my'])
    for (const step of steps) {
      const sse = openSse(`${app.url}/api/v1/query/stream`, {
        natural_language: `List the orders (${step})`,
        datasource_id: ds,
      });
      await sse.waitFor((e) => e.event === step).catch(() => undefined);
      sse.close();
    }
  // A finished run's result, then pages and CSV downloads abandoned before and after their first bytes.
  const done = (
    await http('POST', `${app.url}/api/v1/query`, {
      body: { natural_language: 'List the orders', datasource_id: 'pg' },
    })
  ).json();
  expect(done.status).toBe('success');
  const result = `/api/v1/query/${done.trace_id}/results/${done.sub_queries[0].id}`;
  for (let i = 0; i < 5; i++) {
    await abandon(`${result}?offset=0&limit=1000`, i % 2 === 0);
    await abandon(`${result}.csv`, i % 2 === 1);
  }
  // Give the server the moment it needs to see the closed sockets, then look.
  for (let i = 0; i < 100 && scratch().length; i++) await new Promise((r) => setTimeout(r, 50));
  expect(scratch()).toEqual([]);
  const held = await serverConnections();
  expect(held.pg).toBeLessThanOrEqual(POOL_MAX);
  expect(held.mysql).toBeLessThanOrEqual(POOL_MAX);
  // Every pool answers the next query at once (a leaked slot would make it wait for the pool timeout).
  for (const ds of ['pg', 'my']) {
    const next = (
      await http('POST', `${app.url}/api/v1/query`, {
        body: { natural_language: 'List the orders, again', datasource_id: ds },
      })
    ).json();
    expect(next.status).toBe('success');
    expect(next.sub_queries[0].rows.rows).toHaveLength(3);
  }
});
