/**
 * What the planner knows beyond the schema, over real HTTP with the real model client against the
 * fake model server: the datasource's instructions and the glossary term a question names reach
 * the planner's and the decomposer's prompts; the database's own comments (DuckDB COMMENT ON here)
 * reach the planner's schema and the datasource listings, never for a column the role may not read.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DuckDBInstance } from '@duckdb/node-api';
import { startApp, type RunningApp } from '../support/app';
import { shopOn } from '../support/databases';
import { FakeModelServer } from '../support/fake-model';
import { http } from '../support/http';
import { PipelineModel, promptText, userText } from '../support/pipeline-model';

let fake: FakeModelServer;
let app: RunningApp;

const INSTRUCTIONS = 'Revenue excludes orders under 1 EUR.';
const GLOSSARY = {
  'zz unrelated metric': 'something no question here names',
  'big spender': 'a customer whose orders add up to more than 25',
  AOV: 'AVG(orders.amount)',
};

beforeAll(async () => {
  const shop = await shopOn('duckdb');
  const path = (shop.config.connection as { path: string }).path;
  const instance = await DuckDBInstance.create(path);
  const conn = await instance.connect();
  for (const sql of [
    "COMMENT ON TABLE orders IS 'One row per order, in EUR'",
    "COMMENT ON COLUMN orders.amount IS 'Gross amount incl. VAT'",
    "COMMENT ON COLUMN customers.name IS 'Full legal name'",
  ])
    await conn.run(sql);
  conn.closeSync();
  instance.closeSync();
  fake = await FakeModelServer.start();
  app = await startApp({
    api: { role_header: 'X-Roles' },
    policies: { roles: { admin: {}, analyst: { columns: { deny: ['shop.customers.name'] } } } },
    datasources: [{ ...shop.config, instructions: INSTRUCTIONS, glossary: GLOSSARY }],
    llm: {
      provider: 'openai_compatible',
      model: 'fake-model',
      base_url: fake.openaiBaseUrl,
      api_key: 'k',
      planner_format: 'sql',
    },
    // The decomposer is asked every time here, so its prompt can be seen too.
    settings: { pipeline: { plan_cache_size: 0, decompose: 'always' } },
  });
});
afterAll(async () => {
  await app?.close();
  await fake.close();
});
beforeEach(() => fake.reset());

const asAnalyst = { 'X-Roles': 'analyst' };

it('sends the instructions and the glossary term the question names, first, to the planner and the decomposer', async () => {
  const model = new PipelineModel(fake)
    .single('shop')
    .on('sql_draft', { json: { sql: 'SELECT AVG(amount) AS aov FROM orders', unanswerable_reason: null } })
    .on('answer', { text: 'About 12.58.' });
  const res = await http('POST', `${app.url}/api/v1/query`, {
    headers: asAnalyst,
    body: { natural_language: 'What is the AOV of big spenders?' },
  });
  expect(res.json().status).toBe('success');

  const planner = promptText(model.requestsOf('sql_draft')[0]!);
  const rules = planner.indexOf(`Business rules of this datasource (follow them):\n${INSTRUCTIONS}`);
  const aov = planner.indexOf('- AOV (SQL expression): AVG(orders.amount)');
  const spender = planner.indexOf('- big spender: a customer whose orders add up to more than 25');
  const unrelated = planner.indexOf('- zz unrelated metric:');
  const schema = planner.indexOf('Schema:\n');
  // Rules, then the named terms in the question's order, then the rest, then the schema.
  expect(rules).toBeGreaterThan(0);
  expect(rules).toBeLessThan(aov);
  expect(aov).toBeLessThan(spender);
  expect(spender).toBeLessThan(unrelated);
  expect(unrelated).toBeLessThan(schema);
  // The question stays after the cache breakpoint, the knowledge before it.
  expect(userText(model.requestsOf('sql_draft')[0]!)).not.toContain(INSTRUCTIONS);

  // The database's comments are in the schema; the denied column's is not.
  expect(planner).toContain('CREATE TABLE orders ( -- ~3 rows; One row per order, in EUR');
  expect(planner).toMatch(/amount DOUBLE -- Gross amount incl\. VAT/);
  expect(planner).not.toContain('Full legal name');

  const decomposer = userText(model.requestsOf('decompose_question')[0]!);
  expect(decomposer).toContain(
    `- shop: (no description)\n  Business rules of this datasource (follow them):\n  ${INSTRUCTIONS}`,
  );
  expect(decomposer).toContain('  - AOV (SQL expression): AVG(orders.amount)');
});

it("lists the database's comments the caller's roles may read", async () => {
  const comments = async (headers: Record<string, string>) => {
    const one = await http('GET', `${app.url}/api/v1/datasource/shop`, { headers });
    expect(one.status).toBe(200);
    const all = (await http('GET', `${app.url}/api/v1/datasource`, { headers })).json().datasources;
    expect(all[0].comments).toEqual(one.json().comments);
    return one.json().comments;
  };
  expect(await comments({ 'X-Roles': 'admin' })).toEqual([
    { table: 'customers', column: 'name', comment: 'Full legal name' },
    { table: 'orders', column: null, comment: 'One row per order, in EUR' },
    { table: 'orders', column: 'amount', comment: 'Gross amount incl. VAT' },
  ]);
  expect(await comments(asAnalyst)).toEqual([
    { table: 'orders', column: null, comment: 'One row per order, in EUR' },
    { table: 'orders', column: 'amount', comment: 'Gross amount incl. VAT' },
  ]);
  // No role: with role policies configured, an unlisted caller reads nothing, comments included.
  expect(await comments({})).toEqual([]);
});

it('describes the comments over MCP, none for a column the role may not read', async () => {
  const client = new Client({ name: 'knowledge-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: asAnalyst } }),
  );
  try {
    const answer = (await client.callTool({
      name: 'describe_datasource',
      arguments: { datasource_id: 'shop' },
    })) as {
      structuredContent?: {
        tables: {
          name: string;
          comment?: string | null;
          columns: { name: string; comment?: string | null }[];
        }[];
      };
    };
    const tables = answer.structuredContent!.tables;
    const orders = tables.find((t) => t.name === 'orders')!;
    expect(orders.comment).toBe('One row per order, in EUR');
    expect(orders.columns.find((c) => c.name === 'amount')?.comment).toBe('Gross amount incl. VAT');
    const customers = tables.find((t) => t.name === 'customers')!;
    expect(customers.columns.find((c) => c.name === 'name')?.comment).toBeNull();
    expect(JSON.stringify(answer)).not.toContain('Full legal name');
  } finally {
    await client.close();
  }
});

it('takes instructions and a glossary in a datasource added at runtime, and names a bad glossary entry', async () => {
  const admin = { 'X-Roles': 'admin' };
  const bad = await http('POST', `${app.url}/api/v1/datasource`, {
    headers: admin,
    body: {
      config: {
        id: 'more',
        type: 'sqlite',
        connection: { path: '/nonexistent.sqlite' },
        glossary: { AOV: 3 },
      },
    },
  });
  expect(bad.status).toBe(422);
  expect(bad.json().error_code).toBe('CONFIG_INVALID');
  expect(bad.json().detail).toContain('glossary.AOV');
  const misspelt = await http('POST', `${app.url}/api/v1/datasource`, {
    headers: admin,
    body: {
      config: { id: 'more', type: 'sqlite', connection: { path: '/nonexistent.sqlite' }, instruction: 'x' },
    },
  });
  expect(misspelt.status).toBe(422);
  expect(misspelt.json().detail).toMatch(/instruction.*instructions/);
  const added = await http('POST', `${app.url}/api/v1/datasource`, {
    headers: admin,
    body: {
      config: {
        id: 'more',
        type: 'sqlite',
        connection: { path: '/nonexistent.sqlite' },
        instructions: 'Amounts are in cents.',
        glossary: { GMV: 'SUM(orders.amount)' },
      },
    },
  });
  expect(added.status).toBe(200);
  // Not introspected yet: no comments field, and the rest as the spec lists it.
  const listed = (await http('GET', `${app.url}/api/v1/datasource/more`, { headers: admin })).json();
  expect(listed).toMatchObject({ id: 'more', status: 'unchecked' });
  expect(listed).not.toHaveProperty('comments');
  await http('DELETE', `${app.url}/api/v1/datasource/more`, { headers: admin });
});
