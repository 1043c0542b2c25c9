/**
 * Verified queries over time, over real HTTP: one added at runtime survives a restart and serves
 * like a configured one; a column dropped from a SQLite table disables the verified query that
 * reads it (listed with the reason, in the index status, in /metrics, and no longer served), and
 * adding the column back enables it again.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Database from 'better-sqlite3';
import { makeSqliteFixture, startApp, type RunningApp } from '../support/app';
import { FakeModelServer } from '../support/fake-model';
import { http } from '../support/http';
import { PipelineModel } from '../support/pipeline-model';

let fake: FakeModelServer;
beforeAll(async () => {
  fake = await FakeModelServer.start();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const ADMIN = { 'X-Roles': 'admin' };
const ANALYST = { 'X-Roles': 'analyst' };

function config(dir: string, sqlitePath: string, extra: Record<string, unknown> = {}) {
  return {
    api: { role_header: 'X-Roles' },
    storage: {
      results: { path: join(dir, 'results') },
      traces: { path: join(dir, 'traces') },
      index: { path: join(dir, 'index') },
      knowledge: { path: join(dir, 'knowledge') },
    },
    datasources: [{ id: 'shop', type: 'sqlite', connection: { path: sqlitePath } }],
    llm: {
      provider: 'openai_compatible',
      model: 'fake-model',
      base_url: fake.openaiBaseUrl,
      planner_format: 'sql',
    },
    ...extra,
  };
}

const ORDERS_OF_COUNTRY = {
  id: 'orders_of_country',
  datasource_id: 'shop',
  question: 'How many orders came from :country?',
  sql: 'SELECT count(*) AS orders FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.country = :country',
  params: { country: { type: 'string', description: 'customers.country, e.g. France', example: 'France' } },
};

it('keeps a verified query added at runtime across a restart, serving it with no model call', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nl2sql-vq-restart-'));
  const cfg = config(dir, makeSqliteFixture());
  let app: RunningApp = await startApp(cfg);
  try {
    const added = await http('POST', `${app.url}/api/v1/verified-queries`, {
      body: ORDERS_OF_COUNTRY,
      headers: ADMIN,
    });
    expect(added.status).toBe(200);
  } finally {
    await app.close();
  }
  app = await startApp(cfg);
  try {
    const list = (await http('GET', `${app.url}/api/v1/verified-queries`, { headers: ANALYST })).json();
    expect(list.verified_queries).toEqual([
      expect.objectContaining({
        id: 'orders_of_country',
        origin: 'runtime',
        status: 'enabled',
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      }),
    ]);
    const model = new PipelineModel(fake);
    const answer = (
      await http('POST', `${app.url}/api/v1/query`, {
        body: { natural_language: 'How many orders came from Finland?' },
        headers: ANALYST,
      })
    ).json();
    expect(answer.source).toMatchObject({
      type: 'verified',
      id: 'orders_of_country',
      params: { country: 'Finland' },
    });
    expect(answer.sub_queries[0].rows.rows).toEqual([[1]]);
    expect(model.counts).toEqual({});
    // MCP serves it like a configured one: listed and run by id.
    const mcp = new Client({ name: 'vq-e2e', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: ANALYST } }),
    );
    try {
      const list = (await mcp.callTool({ name: 'list_verified_queries', arguments: {} })) as any;
      expect(list.structuredContent.verified_queries.map((v: any) => v.id)).toEqual(['orders_of_country']);
      const ran = (await mcp.callTool({
        name: 'run_verified_query',
        arguments: { id: 'orders_of_country', params: { country: 'France' } },
      })) as any;
      expect(ran.isError).toBeFalsy();
      expect(JSON.stringify(ran.structuredContent)).toContain('orders_of_country');
    } finally {
      await mcp.close();
    }
    // Removed at runtime: gone after the next restart too.
    expect(
      (await http('DELETE', `${app.url}/api/v1/verified-queries/orders_of_country`, { headers: ADMIN }))
        .status,
    ).toBe(200);
  } finally {
    await app.close();
  }
  app = await startApp(cfg);
  try {
    const list = (await http('GET', `${app.url}/api/v1/verified-queries`, { headers: ADMIN })).json();
    expect(list.verified_queries).toEqual([]);
  } finally {
    await app.close();
  }
});

describe('drift', () => {
  let app: RunningApp;
  let sqlitePath: string;
  const BIG_ORDERS = {
    id: 'big_orders',
    datasource_id: 'shop',
    question: 'Which orders are above :minimum?',
    sql: 'SELECT id, amount FROM orders WHERE amount > :minimum ORDER BY id',
    params: { minimum: { type: 'number', description: 'orders.amount, e.g. 10', example: 10 } },
  };

  beforeAll(async () => {
    sqlitePath = makeSqliteFixture();
    const dir = mkdtempSync(join(tmpdir(), 'nl2sql-vq-drift-'));
    app = await startApp(config(dir, sqlitePath, { verified_queries: [BIG_ORDERS, ORDERS_OF_COUNTRY] }));
  });
  afterAll(() => app?.close());

  const alter = (sql: string) => {
    const db = new Database(sqlitePath);
    db.exec(sql);
    db.close();
  };
  const reindex = async () =>
    expect((await http('POST', `${app.url}/api/v1/index/shop`, { headers: ADMIN })).status).toBe(200);
  const listed = async (headers = ADMIN) =>
    (await http('GET', `${app.url}/api/v1/verified-queries`, { headers })).json().verified_queries as any[];
  const metric = async (name: string, labels: string) => {
    const line = (await http('GET', `${app.url}/metrics`)).text
      .split('\n')
      .find((l) => l.startsWith(`${name}{${labels}}`));
    return line ? Number(line.split(' ').pop()) : 0;
  };

  it('disables the verified query whose column was dropped, and enables it when the column is back', async () => {
    alter('ALTER TABLE orders DROP COLUMN amount');
    await reindex();
    const off = (await listed()).find((v) => v.id === 'big_orders');
    expect(off).toMatchObject({
      origin: 'config',
      status: 'disabled',
      reason: expect.stringMatching(/amount.*UNKNOWN_COLUMN/),
    });
    expect((await listed()).find((v) => v.id === 'orders_of_country')).toMatchObject({ status: 'enabled' });
    // Not served: neither listed to a caller who could run it before, nor matched.
    expect((await listed(ANALYST)).map((v) => v.id)).toEqual(['orders_of_country']);
    const status = (await http('GET', `${app.url}/api/v1/index/status`)).json();
    expect(status.problems).toContainEqual(
      expect.objectContaining({
        code: 'VERIFIED_QUERY_DISABLED',
        datasource_id: 'shop',
        message: expect.stringContaining("'big_orders'"),
      }),
    );
    // The role-free status names the query, not the reason (a reason may name a column some roles may not read).
    expect(JSON.stringify(status.problems)).not.toMatch(/amount/);
    expect(await metric('nl2sql_verified_queries', 'status="disabled",origin="config"')).toBe(1);
    expect(await metric('nl2sql_verified_query_status_changes_total', 'status="disabled"')).toBe(1);
    const model = new PipelineModel(fake)
      .single('shop')
      .on('sql_draft', { json: { sql: 'SELECT id FROM orders', unanswerable_reason: null } })
      .on('answer', { text: 'Orders.' });
    const run = (
      await http('POST', `${app.url}/api/v1/query`, {
        body: { natural_language: 'Which orders are above 8?' },
        headers: ANALYST,
      })
    ).json();
    expect(run.source.type).toBe('generated');
    expect(model.counts.sql_draft).toBe(1);

    alter('ALTER TABLE orders ADD COLUMN amount REAL');
    await reindex();
    expect((await listed()).find((v) => v.id === 'big_orders')).toMatchObject({
      status: 'enabled',
      reason: null,
    });
    expect((await listed(ANALYST)).map((v) => v.id).sort()).toEqual(['big_orders', 'orders_of_country']);
    const after = (await http('GET', `${app.url}/api/v1/index/status`)).json();
    expect(after.problems.filter((p: any) => p.code === 'VERIFIED_QUERY_DISABLED')).toEqual([]);
    expect(await metric('nl2sql_verified_queries', 'status="disabled",origin="config"')).toBe(0);
    expect(await metric('nl2sql_verified_query_status_changes_total', 'status="enabled"')).toBe(1);
  });
});
