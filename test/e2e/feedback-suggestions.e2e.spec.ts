/**
 * The loop over real HTTP, with the fake model: runs are rated (stored, listed, audited, counted),
 * a correction is checked like a SQL draft, two runs of paraphrased questions rated up become one
 * suggested verified query with a lifted parameter, an admin accepts it, and the next paraphrase is
 * answered by it with no model call at all.
 */
import { OperatorEvents, type OperatorEvent } from '../../src/engine/events/operator-events';
import { makeSqliteFixture, startApp, type RunningApp } from '../support/app';
import { FakeModelServer } from '../support/fake-model';
import { http } from '../support/http';
import { customersByCountryModel } from '../support/customers-model';
import { PipelineModel, questionOf } from '../support/pipeline-model';

let fake: FakeModelServer;
let app: RunningApp;
const events: OperatorEvent[] = [];

const ANALYST = { 'X-Roles': 'analyst' };
const ADMIN = { 'X-Roles': 'admin' };

beforeAll(async () => {
  fake = await FakeModelServer.start();
  app = await startApp({
    api: { role_header: 'X-Roles' },
    policies: {
      admin_roles: ['admin'],
      roles: {
        analyst: { datasources: ['shop'] },
        admin: {},
        clerk: { columns: { deny: ['shop.orders.amount'] } },
      },
    },
    datasources: [{ id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } }],
    llm: {
      provider: 'openai_compatible',
      model: 'fake-model',
      base_url: fake.openaiBaseUrl,
      planner_format: 'sql',
    },
    verified_queries: [
      {
        id: 'big_orders',
        datasource_id: 'shop',
        question: 'Which orders are above :minimum?',
        sql: 'SELECT id, amount FROM orders WHERE amount > :minimum ORDER BY id',
        params: { minimum: { type: 'number', description: 'orders.amount, e.g. 10', example: 10 } },
      },
    ],
  });
  app.engine.get(OperatorEvents).subscribe((e) => events.push(e));
});
afterAll(async () => {
  await app?.close();
  await fake.close();
});
beforeEach(() => fake.reset());

/** A model that writes the SQL for "... from <country>" questions, as a real one would. */
function countryModel(): PipelineModel {
  return new PipelineModel(fake)
    .single('shop')
    .on('sql_draft', (req) => {
      const country = /from (\w+)/.exec(questionOf(req))?.[1] ?? 'nowhere';
      return {
        json: {
          sql: `SELECT count(*) AS orders FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.country = '${country}'`,
          unanswerable_reason: null,
        },
      };
    })
    .on('answer', { text: 'Some orders.' });
}

const ask = (natural_language: string, headers = ANALYST) =>
  http('POST', `${app.url}/api/v1/query`, { body: { natural_language }, headers });
const rate = (requestId: string, body: unknown, headers = ANALYST) =>
  http('POST', `${app.url}/api/v1/query/${requestId}/feedback`, { body, headers });

it('stores a rating with the run, lists it for admins, audits it and counts it', async () => {
  countryModel();
  const run = (await ask('How many orders came from France?')).json();
  expect(run.status).toBe('success');
  const res = await rate(run.trace_id, { rating: 'down', comment: 'I meant last year' });
  expect(res.status).toBe(200);
  expect(res.json()).toMatchObject({ success: true, request_id: run.trace_id, message: 'rated down' });
  const feedbackId = res.json().feedback_id;

  const list = await http('GET', `${app.url}/api/v1/feedback?request_id=${run.trace_id}`, { headers: ADMIN });
  expect(list.status).toBe(200);
  expect(list.json().feedback).toEqual([
    expect.objectContaining({
      id: feedbackId,
      request_id: run.trace_id,
      rating: 'down',
      comment: 'I meant last year',
      corrected_sql: null,
      by: { roles: ['analyst'], user_id: null },
      run: expect.objectContaining({
        question: 'How many orders came from France?',
        roles: ['analyst'],
        sub_queries: [
          expect.objectContaining({
            datasource_id: 'shop',
            sql: expect.stringContaining("'France'"),
            plan_source: 'llm',
            plan: expect.objectContaining({ kind: 'query' }),
          }),
        ],
      }),
    }),
  ]);
  expect((await http('GET', `${app.url}/api/v1/feedback`, { headers: ANALYST })).status).toBe(403);
  expect(events).toContainEqual(
    expect.objectContaining({
      name: 'feedback.recorded',
      trace_id: run.trace_id,
      data: expect.objectContaining({ feedback_id: feedbackId, rating: 'down', has_comment: true }),
    }),
  );
  const metrics = (await http('GET', `${app.url}/metrics`)).text;
  expect(metrics).toMatch(/^nl2sql_feedback_total\{rating="down"\} [1-9]/m);
});

it('refuses a rating of an unknown run (404) and a bad body (422) with clear codes', async () => {
  const unknown = await rate('0123456789abcdef', { rating: 'up' });
  expect(unknown.status).toBe(404);
  expect(unknown.json().error_code).toBe('NOT_FOUND');
  expect((await rate('../etc', { rating: 'up' })).status).toBe(404);
  countryModel();
  const run = (await ask('How many orders came from Finland?')).json();
  const bad = await rate(run.trace_id, { rating: 'sideways' });
  expect(bad.status).toBe(422);
  expect(bad.json()).toMatchObject({
    error_code: 'REQUEST_INVALID',
    detail: expect.stringMatching(/rating/),
  });
  const typo = await rate(run.trace_id, { rating: 'up', coment: 'x' });
  expect(typo.status).toBe(422);
  expect(typo.json().detail).toMatch(/coment.*comment/);
});

it('checks a correction like a SQL draft: against the schema and the caller roles', async () => {
  countryModel();
  const run = (await ask('How many orders came from Finland?', { 'X-Roles': 'clerk' })).json();
  const unknownColumn = await rate(
    run.trace_id,
    { rating: 'down', corrected_sql: 'SELECT count(*) FROM orders WHERE totl > 1' },
    { 'X-Roles': 'clerk' },
  );
  expect(unknownColumn.status).toBe(422);
  expect(unknownColumn.json()).toMatchObject({
    error_code: 'CORRECTED_SQL_INVALID',
    detail: expect.stringMatching(/^corrected_sql: UNKNOWN_COLUMN: .*totl/),
  });
  const denied = await rate(
    run.trace_id,
    { rating: 'down', corrected_sql: 'SELECT sum(amount) AS total FROM orders' },
    { 'X-Roles': 'clerk' },
  );
  expect(denied.status).toBe(422);
  expect(denied.json().detail).toMatch(/COLUMN_DENIED/);
  const notSql = await rate(run.trace_id, { rating: 'down', corrected_sql: 'DELETE FROM orders' });
  expect(notSql.status).toBe(422);
  expect(notSql.json().detail).toMatch(/^corrected_sql: SQL_/);
  const good = await rate(run.trace_id, {
    rating: 'down',
    corrected_sql: 'SELECT count(*) AS orders FROM orders WHERE customer_id = 2',
  });
  expect(good.status).toBe(200);
  expect(good.json().message).toBe('rated down with a correction');
});

it('suggests one verified query from two up-rated paraphrases, and once accepted it answers the next with no model call', async () => {
  customersByCountryModel(fake);
  const first = (await ask('Which customers live in France?')).json();
  const second = (await ask('Customers based in Finland')).json();
  expect(second.sub_queries[0].rows.rows).toEqual([['Linus']]);
  expect((await rate(first.trace_id, { rating: 'up' })).status).toBe(200);
  expect((await rate(second.trace_id, { rating: 'up' })).status).toBe(200);

  expect(
    (await http('GET', `${app.url}/api/v1/verified-queries/suggestions`, { headers: ANALYST })).status,
  ).toBe(403);
  const res = await http('GET', `${app.url}/api/v1/verified-queries/suggestions`, { headers: ADMIN });
  expect(res.status).toBe(200);
  const suggestion = res
    .json()
    .suggestions.find((s: any) => s.evidence.runs.some((r: any) => r.request_id === first.trace_id));
  expect(suggestion.verified_query).toMatchObject({
    datasource_id: 'shop',
    question: 'Which customers live in :country?',
    paraphrases: ['Customers based in :country'],
    params: {
      country: {
        type: 'string',
        description: 'Compared with customers.country, e.g. France',
        example: 'France',
      },
    },
  });
  expect(suggestion.verified_query.sql).toMatch(/= :country/);
  expect(suggestion.evidence).toMatchObject({ ratings: { up: 2, down: 0 }, corrections: 0 });
  expect(suggestion.evidence.runs.map((r: any) => [r.request_id, r.rating])).toEqual([
    [first.trace_id, 'up'],
    [second.trace_id, 'up'],
  ]);

  const accepted = await http('POST', `${app.url}/api/v1/verified-queries`, {
    body: suggestion.verified_query,
    headers: ADMIN,
  });
  expect(accepted.status).toBe(200);
  expect(accepted.json().verified_query).toMatchObject({ origin: 'runtime', status: 'enabled' });
  // Accepted: no longer suggested.
  const after = (
    await http('GET', `${app.url}/api/v1/verified-queries/suggestions`, { headers: ADMIN })
  ).json();
  expect(after.suggestions.map((s: any) => s.id)).not.toContain(suggestion.id);

  fake.reset();
  const model = new PipelineModel(fake);
  const answer = (await ask('Customers based in France')).json();
  expect(answer.status).toBe('success');
  expect(answer.source).toEqual({
    type: 'verified',
    id: suggestion.verified_query.id,
    datasource_id: 'shop',
    params: { country: 'France' },
  });
  expect(answer.sub_queries[0].rows.rows).toEqual([['Ada']]);
  expect(answer.usage.total.calls).toBe(0);
  expect(model.counts).toEqual({});
});

it('lists the verified queries a caller may run; an admin sees every one with origin and status', async () => {
  const analyst = (await http('GET', `${app.url}/api/v1/verified-queries`, { headers: ANALYST })).json();
  expect(analyst.verified_queries.map((v: any) => v.id)).toContain('big_orders');
  expect(analyst.verified_queries.find((v: any) => v.id === 'big_orders')).toMatchObject({
    origin: 'config',
    status: 'enabled',
    reason: null,
    created_at: null,
    params: { minimum: { type: 'number', description: 'orders.amount, e.g. 10', example: 10 } },
  });
  // The clerk may not read orders.amount: the query is neither listed nor runnable for it.
  const clerk = (
    await http('GET', `${app.url}/api/v1/verified-queries`, { headers: { 'X-Roles': 'clerk' } })
  ).json();
  expect(clerk.verified_queries.map((v: any) => v.id)).not.toContain('big_orders');
  expect((await http('GET', `${app.url}/api/v1/verified-queries`)).status).toBe(401);
});

it('refuses a verified query that does not pass the check, a taken id, and deleting a configured one', async () => {
  const post = (body: unknown, headers = ADMIN) =>
    http('POST', `${app.url}/api/v1/verified-queries`, { body, headers });
  const base = {
    id: 'rt_orders',
    datasource_id: 'shop',
    question: 'All orders',
    sql: 'SELECT id FROM orders',
  };
  expect((await post(base, ANALYST)).status).toBe(403);
  const unknownColumn = await post({ ...base, sql: 'SELECT id, totl FROM orders WHERE id = :id' });
  expect(unknownColumn.status).toBe(422);
  expect(unknownColumn.json().error_code).toBe('VERIFIED_QUERY_INVALID');
  expect(unknownColumn.json().detail).toMatch(/verified_query\.sql: .*totl.*UNKNOWN_COLUMN/);
  expect(unknownColumn.json().detail).toMatch(/verified_query\.params: placeholder :id is not declared/);
  const typo = await post({ ...base, paramz: {} });
  expect(typo.status).toBe(422);
  expect(typo.json().detail).toMatch(/paramz.*params/);
  const noDatasource = await post({ ...base, datasource_id: 'nope' });
  expect(noDatasource.json().detail).toMatch(/unknown datasource 'nope' \(known: shop\)/);
  // Not an object: refused as every JSON body is; an object: checked as a verified query.
  const odd: [unknown, string][] = [
    [[], 'REQUEST_INVALID'],
    ['x', 'REQUEST_INVALID'],
    [7, 'REQUEST_INVALID'],
    [{}, 'VERIFIED_QUERY_INVALID'],
    [{ ...base, id: 5 }, 'VERIFIED_QUERY_INVALID'],
    [{ ...base, params: { x: { type: 'text' } } }, 'VERIFIED_QUERY_INVALID'],
  ];
  for (const [body, code] of odd) {
    const res = await post(body);
    expect({ body, status: res.status, code: res.json().error_code }).toEqual({ body, status: 422, code });
  }
  const proto = await http('POST', `${app.url}/api/v1/verified-queries`, {
    rawBody: `{"__proto__":{"polluted":true},"id":"p","datasource_id":"shop","question":"q","sql":"SELECT id FROM orders"}`,
    headers: ADMIN,
  });
  expect(proto.status).toBe(422);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  const write = await post({ ...base, sql: 'DELETE FROM orders' });
  expect(write.status).toBe(422);
  expect(write.json().detail).toMatch(/not a single read-only SELECT/);

  expect((await post(base)).status).toBe(200);
  const again = await post(base);
  expect(again.status).toBe(409);
  expect(again.json().error_code).toBe('VERIFIED_QUERY_EXISTS');
  const configured = await http('DELETE', `${app.url}/api/v1/verified-queries/big_orders`, {
    headers: ADMIN,
  });
  expect(configured.status).toBe(409);
  expect(configured.json()).toMatchObject({
    error_code: 'VERIFIED_QUERY_READ_ONLY',
    detail: expect.stringMatching(/config file/),
  });
  expect(
    (await http('DELETE', `${app.url}/api/v1/verified-queries/rt_orders`, { headers: ADMIN })).status,
  ).toBe(200);
  const gone = await http('DELETE', `${app.url}/api/v1/verified-queries/rt_orders`, { headers: ADMIN });
  expect(gone.status).toBe(404);
  expect(events.map((e) => e.name)).toEqual(
    expect.arrayContaining(['audit.verified_query.added', 'audit.verified_query.removed']),
  );
});
