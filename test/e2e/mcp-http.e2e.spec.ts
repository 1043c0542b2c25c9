/**
 * The MCP endpoint at /mcp, driven by the SDK's own client over Streamable HTTP: the tools, their
 * structured answers, roles from the same header as HTTP, masked values of a denied column, a
 * verified query run by id with typed values, and tool errors that carry the service's error_code.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { tableFromIPC } from 'apache-arrow';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OperatorEvents, type OperatorEvent } from '../../src/engine/events/operator-events';
import { makeSqliteFixture, startApp, type RunningApp } from '../support/app';
import { FakeModelServer } from '../support/fake-model';
import { http } from '../support/http';
import { PipelineModel } from '../support/pipeline-model';

let fake: FakeModelServer;
let app: RunningApp;
const clients: Client[] = [];

beforeAll(async () => {
  fake = await FakeModelServer.start();
  app = await startApp({
    api: { role_header: 'X-Roles' },
    datasources: [{ id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } }],
    policies: { roles: { admin: {}, analyst: { columns: { deny: ['shop.customers.name'] } } } },
    verified_queries: [
      {
        id: 'orders_in_country',
        datasource_id: 'shop',
        question: 'How many orders came from a given country?',
        sql: 'SELECT COUNT(*) AS orders FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.country = :country',
        params: { country: { type: 'string', description: 'Country name as stored' } },
      },
    ],
    llm: {
      provider: 'openai_compatible',
      model: 'fake-model',
      base_url: fake.openaiBaseUrl,
      planner_format: 'sql',
    },
  });
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await app?.close();
  await fake.close();
});
beforeEach(() => fake.reset());

async function connect(role: string | null): Promise<Client> {
  const client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
  const headers: Record<string, string> = role ? { 'X-Roles': role } : {};
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers } }),
  );
  clients.push(client);
  return client;
}

type ToolAnswer = { isError?: boolean; structuredContent?: any; content: { type: string; text?: string }[] };
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as ToolAnswer;

it('lists the six tools with input and output schemas, and no admin operation', async () => {
  const client = await connect('analyst');
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual([
    'ask',
    'describe_datasource',
    'get_result_page',
    'list_datasources',
    'list_verified_queries',
    'run_verified_query',
  ]);
  for (const t of tools) {
    expect(t.inputSchema.type).toBe('object');
    expect(t.outputSchema?.type).toBe('object');
    expect(t.description).toBeTruthy();
  }
});

it('describes a datasource without the values of a column the role may not read', async () => {
  const analyst = await connect('analyst');
  const listed = await call(analyst, 'list_datasources');
  expect(listed.structuredContent.datasources).toEqual([
    expect.objectContaining({ id: 'shop', dialect: 'sqlite', status: 'ready' }),
  ]);
  const shop = (await call(analyst, 'describe_datasource', { datasource_id: 'shop' })).structuredContent;
  const customers = shop.tables.find((t: any) => t.name === 'customers');
  const column = (name: string) => customers.columns.find((c: any) => c.name === name);
  expect(column('name')).toMatchObject({ readable: false, sample_values: [] });
  expect(column('country')).toMatchObject({ readable: true });
  expect(column('country').sample_values).toContain('France');
  expect(JSON.stringify(shop)).not.toContain('Ada');
  const asAdmin = (await call(await connect('admin'), 'describe_datasource', { datasource_id: 'shop' }))
    .structuredContent;
  expect(JSON.stringify(asAdmin)).toContain('Ada');

  const unknown = await call(analyst, 'describe_datasource', { datasource_id: 'nope' });
  expect(unknown.isError).toBe(true);
  expect(unknown.structuredContent.error_code).toBe('DATASOURCE_NOT_FOUND');
  expect(unknown.content[0]!.text).toMatch(
    /^DATASOURCE_NOT_FOUND: unknown datasource 'nope' \(known: shop\)/,
  );
});

it('asks a question and pages its whole result', async () => {
  new PipelineModel(fake)
    .single('shop')
    .on('sql_draft', {
      json: { sql: 'SELECT id, amount FROM orders ORDER BY id', unanswerable_reason: null },
    })
    .on('answer', { text: 'Three orders.' });
  const client = await connect('analyst');
  const answer = await call(client, 'ask', { question: 'Show every order id with its amount' });
  expect(answer.isError).toBeFalsy();
  const s = answer.structuredContent;
  expect(s).toMatchObject({ status: 'success', answer: 'Three orders.', source: { type: 'generated' } });
  expect(s.sub_queries[0]).toMatchObject({ datasource_id: 'shop', columns: ['id', 'amount'], total_rows: 3 });
  expect(s.sub_queries[0].sql).toMatch(/FROM "orders"/);
  expect(s.usage.model_calls).toBe(2);
  expect(answer.content[0]!.text).toContain('Three orders.');

  const page = await call(client, 'get_result_page', {
    request_id: s.request_id,
    result_id: s.sub_queries[0].result_id,
    offset: 1,
    limit: 1,
  });
  expect(page.structuredContent).toMatchObject({ rows: [[2, 20]], total_rows: 3, next_offset: 2 });
  const missing = await call(client, 'get_result_page', { request_id: s.request_id, result_id: 'nope' });
  expect(missing).toMatchObject({ isError: true, structuredContent: { error_code: 'NOT_FOUND' } });
});

it('reports each finished step as progress when the call carries a progress token', async () => {
  new PipelineModel(fake)
    .single('shop')
    .on('sql_draft', { json: { sql: 'SELECT COUNT(*) AS n FROM orders', unanswerable_reason: null } })
    .on('answer', { text: 'Three orders.' });
  const client = await connect('analyst');
  const progress: { progress: number; message?: string }[] = [];
  const answer = (await client.callTool(
    { name: 'ask', arguments: { question: 'Count the rows of the orders table' } },
    undefined,
    {
      onprogress: (p) => progress.push(p),
    },
  )) as ToolAnswer;
  expect(answer.structuredContent.status).toBe('success');
  const messages = progress.map((p) => p.message);
  expect(messages).toEqual(
    expect.arrayContaining(['ast_planner done', 'executor done', 'answer_synthesizer done']),
  );
  expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));
});

it('runs a verified query by id with typed values and no model call', async () => {
  const client = await connect('analyst');
  const listed = (await call(client, 'list_verified_queries')).structuredContent.verified_queries;
  expect(listed).toEqual([
    expect.objectContaining({
      id: 'orders_in_country',
      params: { country: { type: 'string', description: 'Country name as stored' } },
    }),
  ]);
  const ran = await call(client, 'run_verified_query', {
    id: 'orders_in_country',
    params: { country: 'France' },
  });
  expect(ran.structuredContent).toMatchObject({
    status: 'success',
    source: { type: 'verified', id: 'orders_in_country' },
  });
  expect(ran.structuredContent.sub_queries[0].rows).toEqual([[2]]);
  expect(fake.requests).toHaveLength(0);

  const wrongType = await call(client, 'run_verified_query', {
    id: 'orders_in_country',
    params: { country: 3 },
  });
  expect(wrongType.structuredContent).toMatchObject({ error_code: 'REQUEST_INVALID' });
  expect(wrongType.structuredContent.message).toContain("parameter 'country' must be of type string, got 3");
  const unknown = await call(client, 'run_verified_query', { id: 'nope' });
  expect(unknown).toMatchObject({ isError: true, structuredContent: { error_code: 'NOT_FOUND' } });
});

it('cancels the run when the client disconnects: no model call after it', async () => {
  new PipelineModel(fake)
    .single('shop')
    .on('sql_draft', {
      json: { sql: 'SELECT COUNT(*) AS n FROM orders', unanswerable_reason: null },
      delayMs: 400,
    })
    .on('answer', { text: 'Three orders.' });
  const ended = new Promise<OperatorEvent>((resolve) => {
    const sub = app.engine.get(OperatorEvents).subscribe((e) => {
      if (e.name !== 'run.ended') return;
      sub.unsubscribe();
      resolve(e);
    });
  });
  const abort = new AbortController();
  const call = fetch(`${app.url}/mcp`, {
    method: 'POST',
    signal: abort.signal,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'X-Roles': 'analyst',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'ask', arguments: { question: 'Tally every order row' } },
    }),
  }).then((r) => r.text());
  // Leave once the planner's call is in flight.
  while (!fake.requests.some((r) => r.body?.tools?.[0]?.function?.name === 'sql_draft'))
    await new Promise((r) => setTimeout(r, 10));
  abort.abort();
  await expect(call).rejects.toThrow();
  expect((await ended).data).toMatchObject({ status: 'cancelled' });
  expect(fake.requests.map((r) => r.body?.tools?.[0]?.function?.name ?? 'answer')).toEqual(['sql_draft']);
});

it('takes roles from the same header as HTTP, and offers only POST', async () => {
  await expect(connect(null)).rejects.toThrow(/ROLE_REQUIRED/);
  const get = await http('GET', `${app.url}/mcp`);
  expect(get.status).toBe(405);
  expect(get.json().error_code).toBe('METHOD_NOT_ALLOWED');
});

it('hands a page out as the Arrow IPC stream of the .arrow route, typed, with the path of the whole result', async () => {
  new PipelineModel(fake)
    .single('shop')
    .on('sql_draft', {
      json: { sql: 'SELECT id, amount FROM orders ORDER BY id', unanswerable_reason: null },
    })
    .on('answer', { text: 'Three orders.' });
  const client = await connect('analyst');
  const s = (await call(client, 'ask', { question: 'Show every order id with its amount, typed' }))
    .structuredContent;
  const page = await call(client, 'get_result_page', {
    request_id: s.request_id,
    result_id: s.sub_queries[0].result_id,
    offset: 1,
    format: 'arrow',
  });
  const whole = `/api/v1/query/${s.request_id}/results/${s.sub_queries[0].result_id}.arrow`;
  expect(page.structuredContent).toMatchObject({
    columns: ['id', 'amount'],
    rows: [],
    offset: 1,
    total_rows: 3,
    next_offset: null,
    arrow: { media_type: 'application/vnd.apache.arrow.stream', rows: 2, whole_result_path: whole },
  });
  const resource = (page.content as any[]).find((c) => c.type === 'resource').resource;
  expect(resource.mimeType).toBe('application/vnd.apache.arrow.stream');
  const table = tableFromIPC(Buffer.from(resource.blob, 'base64'));
  expect(table.schema.fields.map((f) => `${f.name}: ${String(f.type)}`)).toEqual([
    'id: Int64',
    'amount: Float64',
  ]);
  expect(table.toArray().map((r) => [r.id, r.amount])).toEqual([
    [2n, 20],
    [3n, 7.25],
  ]);
  // The route the answer names streams the whole result.
  const res = await fetch(`${app.url}${whole}`, { headers: { 'X-Roles': 'analyst' } });
  expect(tableFromIPC(new Uint8Array(await res.arrayBuffer())).numRows).toBe(3);
  const missing = await call(client, 'get_result_page', {
    request_id: s.request_id,
    result_id: 'nope',
    format: 'arrow',
  });
  expect(missing).toMatchObject({ isError: true, structuredContent: { error_code: 'NOT_FOUND' } });
});
