/**
 * Runs end to end over real HTTP: the real AppModule, real databases, the real `openai` client
 * talking to a scripted fake model server on 127.0.0.1 (spec 4.1-4.4, issue 5's list).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as P from '../../src/engine/plan/build';
import type { Query } from '../../src/engine/plan/types';
import { startApp, type RunningApp } from '../support/app';
import { shopOn, type ShopDatasource } from '../support/databases';
import { FakeModelServer } from '../support/fake-model';
import { http } from '../support/http';
import { PipelineModel, promptText, questionOf, userText } from '../support/pipeline-model';
import { OperatorEvents } from '../../src/engine/events/operator-events';
import { lastValueFrom, tap } from 'rxjs';
import type { QueryResponse } from '../../src/engine/run/query-response';

const SUMMARY = 'France has 2 orders totalling 30.5 and Finland has 1 order totalling 7.25.';

/** Orders and their total per country, ordered by country. */
function ordersByCountry(amountColumn = 'amount'): Query {
  return P.query(
    P.select({
      columns: [
        P.item(P.col('country', 'c'), 'country'),
        P.item(P.countStar(), 'orders'),
        P.item(P.agg('sum', P.col(amountColumn, 'o')), 'total'),
      ],
      from: P.join(
        'inner',
        P.table('orders', 'o'),
        P.table('customers', 'c'),
        P.cmp('=', P.col('id', 'c'), P.col('customer_id', 'o')),
      ),
      groupBy: [P.col('country', 'c')],
    }),
    { orderBy: [P.order(P.col('country', 'c'))] },
  );
}

const allOrders = (): Query =>
  P.query(P.select({ columns: [P.col('id'), P.col('amount')], from: P.table('orders') }), {
    orderBy: [P.order(P.col('id'))],
  });

let fake: FakeModelServer;
beforeAll(async () => {
  fake = await FakeModelServer.start();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

function llm(extra: Record<string, unknown> = {}) {
  return {
    provider: 'openai_compatible',
    model: 'fake-model',
    base_url: fake.openaiBaseUrl,
    api_key: 'sk-test-0123456789abcdef',
    ...extra,
  };
}

/**
 * These tests script the decomposer's answer, so their apps always ask it (decompose: always);
 * the default, which asks it only when it has something to decide, has a test of its own below.
 */
async function appWith(ds: ShopDatasource, extra: Record<string, unknown> = {}): Promise<RunningApp> {
  const { settings, ...rest } = extra as { settings?: { pipeline?: Record<string, unknown> } };
  return startApp({
    api: { role: 'analyst' },
    datasources: [ds.config],
    llm: llm(),
    settings: { pipeline: { decompose: 'always', ...(settings?.pipeline ?? {}) } },
    ...rest,
  });
}

const ask = (app: RunningApp, natural_language: string, extra: Record<string, unknown> = {}) =>
  http('POST', `${app.url}/api/v1/query`, { body: { natural_language, ...extra } });

function scriptHappyPath(model: PipelineModel, plan: Query = ordersByCountry()) {
  return model
    .single('shop')
    .on('query_plan', { json: { plan, unanswerable_reason: null } })
    .on('answer', { text: SUMMARY });
}

describe.each(['sqlite', 'duckdb', 'postgres', 'mysql'] as const)('a question on %s', (type) => {
  let ds: ShopDatasource;
  let app: RunningApp;
  beforeAll(async () => {
    ds = await shopOn(type);
    app = await appWith(ds);
  });
  afterAll(async () => {
    await app.close();
    await ds.drop();
  });

  it('succeeds with SQL, rows, an answer, usage and a saved result', async () => {
    const model = scriptHappyPath(new PipelineModel(fake));
    const res = await ask(app, 'How many orders and how much revenue per country?');
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body.errors).toEqual([]);
    expect(body.status).toBe('success');
    const sq = body.sub_queries[0];
    expect(sq.status).toBe('success');
    expect(sq.plan_source).toBe('llm');
    expect(sq.datasource_id).toBe('shop');
    expect(sq.sql).toMatch(/SELECT/i);
    expect(sq.schema_version).toEqual(expect.any(String));
    expect(sq.rows.columns).toEqual(['country', 'orders', 'total']);
    expect(sq.rows.rows.map((r: unknown[]) => [r[0], Number(r[1]), Number(r[2])])).toEqual([
      ['Finland', 1, 7.25],
      ['France', 2, 30.5],
    ]);
    expect(body.final_answer.summary).toBe(SUMMARY);
    expect(body.final_answer.format_type).toBe('table');
    expect(body.final_answer.content).toContain('| France | 2 | 30.5 |');
    expect(body.result_manifest).toEqual([
      { node_id: 'sq1', columns: ['country', 'orders', 'total'], row_count: 2, truncated: false },
    ]);
    expect(body.artifact_refs.sq1).toMatchObject({ format: 'parquet', row_count: 2 });
    expect(body.usage.total.calls).toBe(3);
    expect(Object.keys(body.usage.nodes).sort()).toEqual(['answer_synthesizer', 'ast_planner', 'decomposer']);
    expect(body.source).toEqual({ type: 'generated', id: null, datasource_id: null, params: null });
    expect(body.trace_path).toContain(body.trace_id);
    // The trace: what ran and the response, with each sample's columns and counts but no rows.
    const trace = JSON.parse(readFileSync(body.trace_path, 'utf8'));
    expect(trace).toMatchObject({
      trace_id: body.trace_id,
      question: 'How many orders and how much revenue per country?',
    });
    expect(trace.executed[0].executable_sql).toEqual(expect.any(String));
    expect(trace.response.sub_queries[0].rows).toEqual({
      columns: ['country', 'orders', 'total'],
      rows: [],
      total_rows: 2,
      rows_in_response: 2,
    });
    expect(JSON.stringify(trace.response.sub_queries)).not.toContain('Finland');
    expect(Object.keys(body.timings)).toEqual(
      expect.arrayContaining(['decomposer', 'ast_planner', 'logical_validator', 'generator', 'executor']),
    );
    expect(model.counts).toEqual({ decompose_question: 1, query_plan: 1, answer: 1 });
    // Nobody follows a POST /query run's events, so the answer is asked for whole, not streamed.
    expect(model.requestsOf('answer')[0]!.stream).toBe(false);
    // The planner saw the schema with sample values, and never wrote SQL.
    expect(promptText(model.requestsOf('query_plan')[0]!)).toContain('TABLE customers');
  });
});

describe('runs on sqlite', () => {
  let ds: ShopDatasource;
  beforeAll(async () => {
    ds = await shopOn('sqlite');
  });

  it('answers 401 naming the role keys when the request has no role', async () => {
    const app = await startApp({ datasources: [ds.config], llm: llm() });
    try {
      const res = await ask(app, 'How many orders?');
      expect(res.status).toBe(401);
      expect(res.json().detail).toContain('api.role_header');
      expect(fake.requests).toHaveLength(0);
    } finally {
      await app.close();
    }
  });

  it('answers 422 for an invalid body', async () => {
    const app = await appWith(ds);
    try {
      const res = await http('POST', `${app.url}/api/v1/query`, {
        body: { natural_language: '', execute: 'yes' },
      });
      expect(res.status).toBe(422);
      expect(res.json().detail).toMatch(/natural_language|execute/);
      // A field of the wrong type is told only that, not every rule its value also misses.
      const wrongTypes = await http('POST', `${app.url}/api/v1/query`, {
        body: { natural_language: 5, execute: 'yes' },
      });
      expect(wrongTypes.status).toBe(422);
      expect(wrongTypes.json()).toEqual({
        detail: 'natural_language must be a string; execute must be a boolean value',
        error_code: 'REQUEST_INVALID',
      });
      const tooLong = await http('POST', `${app.url}/api/v1/query`, {
        body: { natural_language: 'x'.repeat(4001) },
      });
      // A body the JSON parser refuses is an invalid body too (422), said plainly.
      const truncated = await http('POST', `${app.url}/api/v1/query`, { rawBody: '{"natural_language": ' });
      expect(truncated.status).toBe(422);
      expect(truncated.json()).toEqual({
        detail: expect.stringMatching(/^the request body is not valid JSON: /),
        error_code: 'REQUEST_INVALID',
      });
      // White space alone is no question, and the model is not asked.
      const blank = await http('POST', `${app.url}/api/v1/query`, { body: { natural_language: ' \n ' } });
      expect([blank.status, blank.json()]).toEqual([
        422,
        { detail: 'natural_language must not be blank', error_code: 'REQUEST_INVALID' },
      ]);
      expect(fake.requests).toHaveLength(0);
      // An array is JSON but not an object: said so, not reported as missing fields.
      const array = await http('POST', `${app.url}/api/v1/query`, {
        rawBody: '[{"natural_language": "How many?"}]',
      });
      expect([array.status, array.json()]).toEqual([
        422,
        { detail: 'the request body must be a JSON object', error_code: 'REQUEST_INVALID' },
      ]);
      for (const rawBody of ['null', '"a question"', '42']) {
        const notObject = await http('POST', `${app.url}/api/v1/query`, { rawBody });
        expect([notObject.status, notObject.json()]).toEqual([
          422,
          { detail: 'the request body must be a JSON object', error_code: 'REQUEST_INVALID' },
        ]);
      }
      // JSON sent as a form (curl -d without a content type) is refused naming the type wanted.
      const asForm = await http('POST', `${app.url}/api/v1/query`, {
        rawBody: '{"natural_language": "How many?"}',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect([asForm.status, asForm.json()]).toEqual([
        422,
        {
          detail:
            'the request body must be JSON sent with content-type: application/json (it came as application/x-www-form-urlencoded)',
          error_code: 'REQUEST_INVALID',
        },
      ]);
      expect(tooLong.json().detail).toBe('natural_language must be shorter than or equal to 4000 characters');
    } finally {
      await app.close();
    }
  });

  it('returns plan_only with SQL and no rows when execute is false', async () => {
    const app = await appWith(ds);
    try {
      scriptHappyPath(new PipelineModel(fake));
      const body = (await ask(app, 'Orders per country?', { execute: false })).json();
      expect(body.status).toBe('plan_only');
      expect(body.sub_queries[0].sql).toMatch(/GROUP BY/i);
      expect(body.sub_queries[0].rows).toBeNull();
      expect(body.result_manifest).toEqual([]);
      expect(body.artifact_refs).toEqual({});
    } finally {
      await app.close();
    }
  });

  it('refuses a plan that reads a denied table: HTTP 200, status error, a policy code', async () => {
    const app = await startApp({
      api: { role: 'analyst' },
      datasources: [ds.config],
      llm: llm(),
      policies: { roles: { analyst: { datasources: ['shop'], tables: { deny: ['shop.orders'] } } } },
    });
    try {
      scriptHappyPath(new PipelineModel(fake));
      const res = await ask(app, 'Orders per country?');
      expect(res.status).toBe(200);
      const body = res.json();
      expect(body.status).toBe('error');
      expect(body.errors[0].error_code).toBe('TABLE_DENIED');
      expect(body.sub_queries[0].status).toBe('error');
      expect(body.sub_queries[0].retry_count).toBe(0);
      expect(body.result_manifest).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('reports PROVIDER_AUTH_FAILED with the provider answer, the key redacted', async () => {
    const app = await appWith(ds);
    try {
      new PipelineModel(fake).on('decompose_question', { fail: 'auth' });
      const body = (await ask(app, 'Orders per country?')).json();
      expect(body.status).toBe('error');
      const err = body.errors[0];
      expect(err).toMatchObject({
        node: 'decomposer',
        error_code: 'PROVIDER_AUTH_FAILED',
        severity: 'ERROR',
      });
      expect(err.provider).toEqual(expect.any(String));
      expect(err.provider_response).not.toBeNull();
      expect(JSON.stringify(body)).not.toContain('sk-fake-leaked-1234567890abcdef');
      expect(JSON.stringify(body)).not.toContain('sk-test-0123456789abcdef');
    } finally {
      await app.close();
    }
  });

  it('reports MODEL_OUTPUT_INVALID after parse_retries + 1 planner answers that do not parse', async () => {
    const app = await startApp({
      api: { role: 'analyst' },
      datasources: [ds.config],
      llm: llm({ parse_retries: 2 }),
    });
    try {
      const model = new PipelineModel(fake).single('shop').on('query_plan', { text: 'SELECT * FROM orders' });
      const body = (await ask(app, 'Orders per country?')).json();
      expect(body.status).toBe('error');
      expect(body.errors[0]).toMatchObject({
        node: 'ast_planner',
        error_code: 'MODEL_OUTPUT_INVALID',
        provider: null,
      });
      expect(model.counts.query_plan).toBe(3);
      expect(body.usage.nodes.ast_planner.calls).toBe(3);
    } finally {
      await app.close();
    }
  });

  it('retries a plan the validator rejects and recovers (retry_count 1)', async () => {
    const app = await appWith(ds);
    try {
      const model = new PipelineModel(fake)
        .single('shop')
        .on('query_plan', (_req, n) => ({
          json: { plan: n === 1 ? ordersByCountry('amout') : ordersByCountry(), unanswerable_reason: null },
        }))
        .on('answer', { text: SUMMARY });
      const body = (await ask(app, 'Orders per country?')).json();
      expect(body.status).toBe('success');
      expect(body.sub_queries[0].retry_count).toBe(1);
      expect(model.counts.query_plan).toBe(2);
      // The second planner call carries the validator's problems so the model can repair the plan.
      expect(userText(model.requestsOf('query_plan')[1]!)).toMatch(/amout/);
      expect(userText(model.requestsOf('query_plan')[1]!)).toMatch(/amount/);
    } finally {
      await app.close();
    }
  });

  it('answers from a verified query with its parameters bound', async () => {
    const app = await appWith(ds, {
      verified_queries: [
        {
          id: 'orders_in_country',
          datasource_id: 'shop',
          question: 'How many orders came from a given country?',
          paraphrases: ['Number of orders for a country'],
          sql: 'SELECT count(*) AS orders FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.country = :country',
          params: { country: { type: 'string', description: 'Country name as stored' } },
        },
      ],
    });
    try {
      new PipelineModel(fake)
        .single('shop')
        .on('match_verified_query', { json: { matches: true, params: { country: "France' OR 1=1 --" } } })
        .on('answer', { text: 'No orders matched.' });
      const injected = (await ask(app, 'How many orders came from France?')).json();
      // The value is bound, never spliced: the injection attempt matches no country.
      expect(injected.sub_queries[0].rows.rows).toEqual([[0]]);

      fake.reset();
      new PipelineModel(fake)
        .single('shop')
        .on('match_verified_query', { json: { matches: true, params: { country: 'France' } } })
        .on('answer', { text: 'France placed 2 orders.' });
      const body = (await ask(app, 'How many orders came from France?')).json();
      expect(body.status).toBe('success');
      expect(body.source).toEqual({
        type: 'verified',
        id: 'orders_in_country',
        datasource_id: 'shop',
        params: { country: 'France' },
      });
      const sq = body.sub_queries[0];
      expect(sq.plan_source).toBe('verified');
      expect(sq.sql).toContain(':country');
      expect(sq.plan).toBeNull();
      expect(sq.rows.rows).toEqual([[2]]);
      expect(fake.requests.some((r) => JSON.stringify(r.body).includes('query_plan'))).toBe(false);
    } finally {
      await app.close();
    }
  });

  it('serves a repeated question from the plan cache, validated and executed again', async () => {
    const app = await appWith(ds);
    try {
      const model = scriptHappyPath(new PipelineModel(fake));
      const first = (await ask(app, 'Orders per country?')).json();
      const second = (await ask(app, '  orders PER country ')).json();
      expect(first.sub_queries[0].plan_source).toBe('llm');
      expect(second.sub_queries[0].plan_source).toBe('cache');
      expect(second.usage.plan_cache_hits).toBe(1);
      expect(second.sub_queries[0].rows).toEqual(first.sub_queries[0].rows);
      expect(model.counts.query_plan).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('cuts a result at the row cap and says so', async () => {
    const capped = { ...ds.config, limits: { row_cap: 2 } };
    const app = await startApp({ api: { role: 'analyst' }, datasources: [capped], llm: llm() });
    try {
      scriptHappyPath(new PipelineModel(fake), allOrders()).on('answer', {
        text: 'The first 2 orders are shown; more exist.',
      });
      const body = (await ask(app, 'List all orders')).json();
      const sq = body.sub_queries[0];
      expect(sq.truncated).toBe(true);
      expect(sq.row_cap).toBe(2);
      expect(sq.rows.total_rows).toBe(2);
      expect(body.truncated).toBe(true);
      expect(body.result_manifest[0]).toMatchObject({ row_count: 2, truncated: true });
      expect(body.final_answer.truncated).toBe(true);
      const page = (await http('GET', `${app.url}/api/v1/query/${body.trace_id}/results/sq1`)).json();
      expect(page.total_rows).toBe(2);
    } finally {
      await app.close();
    }
  });

  it('reports row_cap null when the plan asks for fewer rows than the cap', async () => {
    const app = await appWith(ds);
    try {
      const limited = P.query(P.select({ columns: [P.col('id')], from: P.table('orders') }), {
        orderBy: [P.order(P.col('id'))],
        limit: 1,
      });
      scriptHappyPath(new PipelineModel(fake), limited).on('answer', { text: 'Order 1.' });
      const sq = (await ask(app, 'The first order')).json().sub_queries[0];
      expect(sq.row_cap).toBeNull();
      expect(sq.truncated).toBe(false);
      expect(sq.rows.rows).toEqual([[1]]);
    } finally {
      await app.close();
    }
  });

  it('decomposes a question into two sub-queries and answers both', async () => {
    const app = await appWith(ds);
    try {
      const countCustomers = P.query(
        P.select({ columns: [P.item(P.countStar(), 'customers')], from: P.table('customers') }),
      );
      new PipelineModel(fake)
        .on('decompose_question', {
          json: {
            sub_queries: [
              { intent: 'How many customers are there?', datasource_id: 'shop' },
              { intent: 'How many orders per country?', datasource_id: 'shop' },
            ],
          },
        })
        .on('query_plan', (req) => ({
          json: {
            plan: questionOf(req).includes('customers are') ? countCustomers : ordersByCountry(),
            unanswerable_reason: null,
          },
        }))
        .on('answer', { text: 'There are 2 customers; France has 2 orders and Finland 1.' });
      const body = (await ask(app, 'How many customers are there, and how many orders per country?')).json();
      expect(body.status).toBe('success');
      expect(body.sub_queries.map((s: any) => [s.id, s.status])).toEqual([
        ['sq1', 'success'],
        ['sq2', 'success'],
      ]);
      expect(body.sub_queries[0].rows.rows).toEqual([[2]]);
      expect(body.result_manifest.map((m: any) => m.node_id)).toEqual(['sq1', 'sq2']);
    } finally {
      await app.close();
    }
  });

  it('drops a sub-query a hook denies and goes on with the others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nl2sql-hook-'));
    const hookPath = join(dir, 'deny-salaries.js');
    writeFileSync(
      hookPath,
      "module.exports = (input) => /salar/i.test(input.subQuery.intent) ? { allow: false, reason: 'salaries are private' } : { allow: true };\n",
    );
    const app = await appWith(ds, { hooks: [{ module: hookPath, scope: 'sub_query' }] });
    const seen: string[] = [];
    const sub = app.engine.get(OperatorEvents).subscribe((e) => seen.push(e.name));
    try {
      new PipelineModel(fake)
        .on('decompose_question', {
          json: {
            sub_queries: [
              { intent: 'What are the salaries?', datasource_id: 'shop' },
              { intent: 'How many orders per country?', datasource_id: 'shop' },
            ],
          },
        })
        .on('query_plan', { json: { plan: ordersByCountry(), unanswerable_reason: null } })
        .on('answer', { text: SUMMARY });
      const body = (await ask(app, 'Salaries and orders per country')).json();
      expect(body.sub_queries.map((s: any) => s.status)).toEqual(['dropped', 'success']);
      expect(body.status).toBe('success');
      expect(body.warnings.map((w: any) => w.code)).toContain('SUB_QUERY_DROPPED');
      // Hook decisions go to operators, never to the caller's stream.
      expect(seen.filter((n) => n === 'hook.decision')).toHaveLength(2);
    } finally {
      sub.unsubscribe();
      await app.close();
    }
  });

  it('stops before the call that would cross max_model_calls', async () => {
    const app = await appWith(ds, { settings: { pipeline: { max_model_calls: 2 } } });
    try {
      const model = scriptHappyPath(new PipelineModel(fake));
      const body = (await ask(app, 'Orders per country, capped?')).json();
      expect(body.status).toBe('error');
      expect(body.errors).toEqual([
        expect.objectContaining({ node: 'answer_synthesizer', error_code: 'RUN_CALL_LIMIT' }),
      ]);
      expect(model.counts).toEqual({ decompose_question: 1, query_plan: 1 });
      // The sub-query itself succeeded and its result was saved before the cap stopped the answer.
      expect(body.sub_queries[0].status).toBe('success');
      expect(body.result_manifest).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it('stops before the model call that would cross max_cost_usd', async () => {
    const app = await startApp({
      api: { role: 'analyst' },
      datasources: [ds.config],
      // 100 input + 20 output tokens per fake call at these prices: $0.12 a call.
      llm: llm({ prices: { 'fake-model': { input: 1000, output: 1000 } } }),
      settings: { pipeline: { max_cost_usd: 0.2, decompose: 'always' } },
    });
    try {
      const model = scriptHappyPath(new PipelineModel(fake));
      const events: string[] = [];
      const last = await lastValueFrom(
        app.engine
          .stream({
            question: 'Orders per country?',
            datasourceId: null,
            execute: true,
            caller: { roles: ['analyst'], userId: null },
          })
          .pipe(tap((e) => events.push(e.name))),
      );
      const body = (last.data as { result: QueryResponse }).result;
      expect(body.status).toBe('error');
      expect(body.errors[0]!.error_code).toBe('RUN_COST_LIMIT');
      expect(events).toContain('run.limit_reached');
      expect(model.counts).toEqual({ decompose_question: 1 });
      expect(body.usage.total.cost).toBeCloseTo(0.12, 6);
    } finally {
      await app.close();
    }
  });
});
