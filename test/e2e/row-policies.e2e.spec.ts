/**
 * Row and column policies over real HTTP (issue 28), the same table of cases on SQLite, DuckDB,
 * PostgreSQL and MariaDB: the planner's drafts and a verified query run through the real pipeline
 * with the caller's roles and attributes from the proxy's headers. Two attribute values and two
 * roles get disjoint rows of the same question; a join, a subquery, a CTE, a UNION and a verified
 * query keep the filter; an aggregate counts only permitted rows; a mask shows in rows and is
 * refused in WHERE; a missing attribute gives no rows and an attribute holding SQL is a value; and
 * `model_sees: none` sends no stored value to any model request (recorded by the fake model
 * server), while the same question from a role without it does (so the check can fail).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startApp, type RunningApp } from '../support/app';
import { FakeModelServer, type RecordedRequest } from '../support/fake-model';
import { http } from '../support/http';
import { PipelineModel, promptText, userText } from '../support/pipeline-model';
import { SALES_MARKERS, salesOn, type SalesDatasource, type SalesEngine } from '../support/sales';
import { openSse } from '../support/sse';

const ENGINES: SalesEngine[] = ['sqlite', 'duckdb', 'postgres', 'mysql'];
const dsOf = (e: SalesEngine) => `sales_${e}`;

/** The planner's draft for each question (matched on the question's text). */
const DRAFTS: Record<string, string> = {
  'List the orders': 'SELECT id, amount FROM orders ORDER BY id',
  'Orders with their customers':
    'SELECT c.name, o.amount FROM orders o JOIN customers c ON c.id = o.customer_id ORDER BY o.id',
  'Customers who ordered':
    'SELECT name FROM customers WHERE id IN (SELECT customer_id FROM orders) ORDER BY name',
  'Spending per customer':
    'WITH s AS (SELECT customer_id, SUM(amount) AS spent FROM orders GROUP BY customer_id) SELECT customer_id, spent FROM s ORDER BY customer_id',
  'Big and small orders':
    'SELECT id FROM orders WHERE amount > 1500 UNION SELECT id FROM orders WHERE amount < 800 ORDER BY id',
  'Order totals': 'SELECT COUNT(*) AS n, SUM(amount) AS total FROM orders',
  'Order totals per region':
    'SELECT region, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY region ORDER BY region',
  'Customer phones': 'SELECT name, phone FROM customers ORDER BY id',
  'Who has this phone': "SELECT name FROM customers WHERE phone = '+33 612345678'",
  'Every order and who placed it':
    'SELECT c.name, c.phone, o.amount FROM orders o JOIN customers c ON c.id = o.customer_id ORDER BY o.id',
  'Every order with its buyer':
    'SELECT c.name, c.phone, o.amount FROM orders o JOIN customers c ON c.id = o.customer_id ORDER BY o.id',
};

function policies(): Record<string, unknown> {
  const each = (f: (ds: string) => Record<string, string>) =>
    Object.assign({}, ...ENGINES.map((e) => f(dsOf(e))));
  return {
    admin_roles: ['admin'],
    roles: {
      admin: {},
      rep: {
        rows: each((ds) => ({
          [`${ds}.orders`]: 'region = :user.region',
          [`${ds}.customers`]: 'region = :user.region',
        })),
        columns: { mask: ENGINES.map((e) => `${dsOf(e)}.customers.phone`), mask_keep: 4 },
      },
      beta_team: {
        rows: each((ds) => ({
          [`${ds}.orders`]: "region = 'reg_beta'",
          [`${ds}.customers`]: "region = 'reg_beta'",
        })),
      },
      blind: { rows: each((ds) => ({ [`${ds}.orders`]: 'region = :user.region' })), model_sees: 'none' },
      counter: { model_sees: 'aggregates' },
    },
  };
}

let fake: FakeModelServer;
let app: RunningApp;
const sources: SalesDatasource[] = [];

beforeAll(async () => {
  fake = await FakeModelServer.start();
  for (const e of ENGINES) sources.push(await salesOn(e, dsOf(e)));
  app = await startApp({
    api: {
      role_header: 'X-Roles',
      attribute_header: 'X-User-Attributes',
      attributes: ['region'],
    },
    policies: policies(),
    datasources: sources.map((s) => s.config),
    llm: {
      provider: 'openai_compatible',
      model: 'fake-model',
      base_url: fake.openaiBaseUrl,
      api_key: 'k',
      planner_format: 'sql',
    },
    verified_queries: ENGINES.map((e) => ({
      id: `big_orders_${e}`,
      datasource_id: dsOf(e),
      question: 'How many orders are above 600?',
      sql: 'SELECT COUNT(*) AS orders, SUM(amount) AS total FROM orders WHERE amount > :minimum',
      params: { minimum: { type: 'number', description: 'Smallest amount, exclusive' } },
    })),
  });
  // The value index: its matches and typical values are what model_sees none must keep out.
  const built = await http('POST', `${app.url}/api/v1/index-all`, { headers: { 'X-Roles': 'admin' } });
  expect(built.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await fake?.close();
  for (const s of sources) await s.drop();
});

/** Scripts the fake model: one sub-query on `ds`, the drafts above, no verified match by the model. */
function script(ds: string): void {
  fake.reset();
  new PipelineModel(fake)
    .single(ds)
    .on('match_verified_query', { json: { matches: false, params: { minimum: null } } })
    .on('sql_draft', (req) => {
      const question = /Question: (.*)/.exec(userText(req))?.[1]?.trim() ?? userText(req);
      // The longest question the text starts with ('Order totals per region' before 'Order totals').
      const sql = Object.entries(DRAFTS)
        .sort(([a], [b]) => b.length - a.length)
        .find(([q]) => question.startsWith(q))?.[1];
      return { json: { sql: sql ?? null, unanswerable_reason: sql ? null : `unscripted: ${question}` } };
    })
    .on('answer', { text: 'Here is what matched.' });
}

interface Caller {
  readonly roles: string;
  /** The header's raw value. */
  readonly attributes?: string;
}

const ALPHA: Caller = { roles: 'rep', attributes: 'region=reg_alpha' };
const BETA: Caller = { roles: 'rep', attributes: 'region=reg_beta' };
const BETA_TEAM: Caller = { roles: 'beta_team' };
const ADMIN: Caller = { roles: 'admin' };

function headers(c: Caller): Record<string, string> {
  return { 'X-Roles': c.roles, ...(c.attributes !== undefined ? { 'X-User-Attributes': c.attributes } : {}) };
}

async function ask(engine: SalesEngine, question: string, caller: Caller): Promise<any> {
  const res = await http('POST', `${app.url}/api/v1/query`, {
    headers: headers(caller),
    body: { natural_language: question, datasource_id: dsOf(engine) },
  });
  expect(res.status).toBe(200);
  return res.json();
}

/** Numbers as numbers whatever the driver gave (a BIGINT count, a DECIMAL sum). */
const rowsOf = (body: any): unknown[][] =>
  (body.sub_queries[0]?.rows?.rows ?? []).map((r: unknown[]) =>
    r.map((v) => (typeof v === 'string' && /^-?\d+(\.0+)?$/.test(v) ? Number(v) : v)),
  );

async function expectRows(engine: SalesEngine, question: string, caller: Caller, rows: unknown[][]) {
  const body = await ask(engine, question, caller);
  expect({ status: body.status, errors: body.errors, rows: rowsOf(body) }).toEqual({
    status: 'success',
    errors: [],
    rows,
  });
  return body;
}

const bodies = (requests: readonly RecordedRequest[]) => requests.map((r) => JSON.stringify(r.body));

describe.each(ENGINES)('on %s', (engine) => {
  const ds = dsOf(engine);
  beforeEach(() => script(ds));

  it('two attribute values, and two roles, over the same question give disjoint rows', async () => {
    await expectRows(engine, 'List the orders', ADMIN, [
      [1, 1001],
      [2, 2002],
      [3, 505],
      [4, 707],
      [5, 10010],
    ]);
    const alpha = await expectRows(engine, 'List the orders', ALPHA, [
      [1, 1001],
      [2, 2002],
      [4, 707],
    ]);
    await expectRows(engine, 'List the orders', BETA, [
      [3, 505],
      [5, 10010],
    ]);
    await expectRows(engine, 'List the orders', BETA_TEAM, [
      [3, 505],
      [5, 10010],
    ]);
    // A cached plan is kept as planned and filtered again for its caller on every use.
    const cached = await expectRows(engine, 'List the orders', ALPHA, [
      [1, 1001],
      [2, 2002],
      [4, 707],
    ]);
    expect(cached.sub_queries[0].plan_source).toBe('cache');
    expect(JSON.stringify(cached.sub_queries[0].plan)).not.toContain('region');
    // The SQL shown carries the filter; the sub-query says which policy shaped it.
    expect(alpha.sub_queries[0].sql).toMatch(/region/);
    expect(alpha.sub_queries[0].policies_applied).toEqual([
      { kind: 'row_filter', target: `${ds}.orders`, role: 'rep' },
    ]);
  });

  it.each([
    [
      'a join',
      'Orders with their customers',
      [
        ['Zorblatt', 1001],
        ['Zorblatt', 2002],
        ['Fennimore', 707],
      ],
    ],
    ['a subquery', 'Customers who ordered', [['Fennimore'], ['Zorblatt']]],
    [
      'a CTE',
      'Spending per customer',
      [
        [1, 3003],
        [3, 707],
      ],
    ],
    ['a UNION', 'Big and small orders', [[2], [4]]],
    ['an aggregate', 'Order totals', [[3, 3710]]],
  ])('%s keeps the filter', async (_, question, rows) => {
    await expectRows(engine, question, ALPHA, rows);
  });

  it('a verified query keeps the filter, and shows the SQL that ran', async () => {
    const all = await expectRows(engine, 'How many orders are above 600?', ADMIN, [[4, 13720]]);
    expect(all.source).toMatchObject({ type: 'verified', id: `big_orders_${engine}` });
    expect(all.sub_queries[0].sql).toContain(':minimum');
    const alpha = await expectRows(engine, 'How many orders are above 600?', ALPHA, [[3, 3710]]);
    expect(alpha.source).toMatchObject({ type: 'verified', id: `big_orders_${engine}` });
    expect(alpha.sub_queries[0].sql).toMatch(/region/);
    expect(alpha.sub_queries[0].sql).not.toContain(':minimum');
  });

  it('a masked column comes back masked in rows, and is refused in WHERE', async () => {
    const body = await expectRows(engine, 'Customer phones', ALPHA, [
      ['Zorblatt', '***5678'],
      ['Fennimore', null],
    ]);
    expect(body.sub_queries[0].policies_applied).toContainEqual({
      kind: 'mask',
      target: `${ds}.customers.phone`,
      role: 'rep',
    });
    // The saved result holds the masked values only (the mask is part of the SQL).
    const csv = await http(
      'GET',
      `${app.url}/api/v1/query/${body.trace_id}/results/${body.result_manifest[0].node_id}.csv`,
      { headers: headers(ALPHA) },
    );
    expect(csv.status).toBe(200);
    expect(csv.text).toContain('***5678');
    expect(csv.text).not.toContain('612345678');
    const refused = await ask(engine, 'Who has this phone', ALPHA);
    expect(refused.status).toBe('error');
    expect(refused.errors.map((e: any) => e.error_code)).toEqual(['COLUMN_DENIED']);
    expect(JSON.stringify(refused)).not.toContain('Zorblatt');
  });

  it('a missing attribute returns no rows', async () => {
    await expectRows(engine, 'List the orders', { roles: 'rep' }, []);
  });

  it('attribute values holding SQL are bound as values', async () => {
    for (const value of ["reg_alpha' OR '1'='1", 'reg_alpha; DROP TABLE orders; --', "x') OR 1=1 --"])
      await expectRows(
        engine,
        'List the orders',
        { roles: 'rep', attributes: `region=${encodeURIComponent(value)}` },
        [],
      );
    // The table is still there, and its rows still filtered.
    await expectRows(engine, 'List the orders', BETA, [
      [3, 505],
      [5, 10010],
    ]);
  });

  it('model_sees none: no row and no stored value reaches any model request', async () => {
    const body = await expectRows(
      engine,
      'Every order and who placed it',
      { roles: 'blind', attributes: 'region=reg_beta' },
      [
        ['Quiggly', '+1 5551234567', 505],
        ['Wobbleton', '+1 5559876543', 10010],
      ],
    );
    expect(body.final_answer.summary).toContain('Quiggly');
    expect(body.sub_queries[0].policies_applied).toContainEqual({
      kind: 'model_sees',
      target: 'none',
      role: 'blind',
    });
    expect(fake.requests.length).toBeGreaterThan(0);
    expect(fake.requests.some((r) => /sql_draft/.test(JSON.stringify(r.body)))).toBe(true);
    for (const text of bodies(fake.requests))
      for (const m of SALES_MARKERS) expect({ m, found: text.includes(m) }).toEqual({ m, found: false });
    // The same kind of question from a role the policy does not restrict: its prompts hold values.
    fake.requests.length = 0;
    await expectRows(engine, 'Every order with its buyer', ADMIN, [
      ['Zorblatt', '+33 612345678', 1001],
      ['Zorblatt', '+33 612345678', 2002],
      ['Quiggly', '+1 5551234567', 505],
      ['Fennimore', null, 707],
      ['Wobbleton', '+1 5559876543', 10010],
    ]);
    expect(SALES_MARKERS.some((m) => bodies(fake.requests).some((t) => t.includes(m)))).toBe(true);
  });

  it('model_sees aggregates: the answer model reads the aggregates, not the rows', async () => {
    await expectRows(engine, 'Order totals per region', { roles: 'counter' }, [
      ['reg_alpha', 3, 3710],
      ['reg_beta', 2, 10515],
    ]);
    const answer = fake.requests.filter((r) => !r.body.tools && !r.body.response_format);
    expect(answer).toHaveLength(1);
    const text = promptText(answer[0]!);
    expect(text).toContain('3710');
    expect(text).not.toContain('reg_alpha');
    expect(text).toMatch(/values of region withheld/);
  });
});

describe('caller attributes on the wire', () => {
  const ds = dsOf('sqlite');
  beforeEach(() => script(ds));

  it.each([
    ['a pair without =', 'region', "X-User-Attributes: 'region' is not key=value"],
    [
      'an undeclared attribute',
      'region=reg_alpha;team=north',
      "unknown attribute 'team' (api.attributes declares: region)",
    ],
    ['an attribute given twice', 'region=reg_alpha;region=reg_beta', "attribute 'region' is given twice"],
    ['a value that does not decode', 'region=%E0%A4%A', "the value of 'region' is not URL-encoded text"],
  ])('%s is a 422 naming it', async (_, value, detail) => {
    const res = await http('POST', `${app.url}/api/v1/query`, {
      headers: { 'X-Roles': 'rep', 'X-User-Attributes': value },
      body: { natural_language: 'List the orders', datasource_id: ds },
    });
    expect(res.status).toBe(422);
    expect(res.json()).toMatchObject({ error_code: 'REQUEST_INVALID' });
    expect(res.json().detail).toContain(detail);
  });

  it('URL-encoded values are decoded; run.started names the attributes without their values', async () => {
    const sse = openSse(
      `${app.url}/api/v1/query/stream`,
      { natural_language: 'List the orders', datasource_id: ds },
      { 'X-Roles': 'rep', 'X-User-Attributes': ` region = ${encodeURIComponent('reg_beta')} ; ` },
    );
    await sse.ended;
    const started = sse.events.find((e) => e.event === 'run.started')!.data.data;
    expect(started.attributes).toEqual(['region']);
    expect(started.attribute_values).toBeUndefined();
    expect(JSON.stringify(started)).not.toContain('reg_beta');
    const result = sse.events.at(-1)!.data.data.result;
    expect(rowsOf(result)).toEqual([
      [3, 505],
      [5, 10010],
    ]);
  });

  it("MCP's describe_datasource shows no sample and no row count of what a filter or mask narrows", async () => {
    const describe = async (caller: Caller) => {
      const client = new Client({ name: 'row-policies-e2e', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
          requestInit: { headers: headers(caller) },
        }),
      );
      try {
        const r = (await client.callTool({
          name: 'describe_datasource',
          arguments: { datasource_id: ds },
        })) as {
          structuredContent?: any;
        };
        return r;
      } finally {
        await client.close();
      }
    };
    const all = JSON.stringify(await describe(ADMIN));
    expect(all).toContain('Quiggly');
    expect(all).toContain('612345678');
    const rep = await describe(ALPHA);
    const customers = rep.structuredContent.tables.find((t: any) => t.name === 'customers');
    expect(customers.row_count_estimate).toBeNull();
    expect(customers.columns.map((c: any) => c.sample_values)).toEqual([[], [], [], []]);
    for (const m of SALES_MARKERS) expect(JSON.stringify(rep)).not.toContain(m);
  });

  it('MCP runs with the attributes of its request: a verified query by id keeps the filter', async () => {
    const client = new Client({ name: 'row-policies-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
        requestInit: { headers: headers(ALPHA) },
      }),
    );
    try {
      const result = (await client.callTool({
        name: 'run_verified_query',
        arguments: { id: 'big_orders_sqlite', params: { minimum: 600 } },
      })) as { structuredContent?: any };
      expect(result.structuredContent.status).toBe('success');
      const rows = result.structuredContent.sub_queries[0].rows as unknown[][];
      expect(rows.map((r) => r.map(Number))).toEqual([[3, 3710]]);
    } finally {
      await client.close();
    }
  });
});
