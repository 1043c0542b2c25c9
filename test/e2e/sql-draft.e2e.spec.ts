/**
 * The SQL-draft planner (planner_format sql, the default) over real HTTP: the model's SELECT is
 * imported into a plan, validated and compiled; the SQL that runs is the compiled one. A draft
 * that does not parse, cannot be imported or fails validation goes back to the model with the
 * problem; a write never runs.
 */
import { startApp, type RunningApp } from '../support/app';
import { shopOn } from '../support/databases';
import { FakeModelServer } from '../support/fake-model';
import { http } from '../support/http';
import { PipelineModel, promptText, userText } from '../support/pipeline-model';

let fake: FakeModelServer;
let app: RunningApp;

beforeAll(async () => {
  fake = await FakeModelServer.start();
  app = await startApp({
    api: { role: 'analyst' },
    datasources: [(await shopOn('sqlite')).config],
    llm: {
      provider: 'openai_compatible',
      model: 'fake-model',
      base_url: fake.openaiBaseUrl,
      api_key: 'k',
      planner_format: 'sql',
    },
    settings: { pipeline: { plan_cache_size: 0 } },
  });
});
afterAll(async () => {
  await app?.close();
  await fake.close();
});
beforeEach(() => fake.reset());

const ask = (natural_language: string) =>
  http('POST', `${app.url}/api/v1/query`, { body: { natural_language } });

const BY_COUNTRY =
  'SELECT c.country, COUNT(*) AS orders FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.country ORDER BY c.country';

it('imports the draft into a plan, validates it and runs the compiled SQL', async () => {
  const model = new PipelineModel(fake)
    .single('shop')
    .on('sql_draft', { json: { sql: BY_COUNTRY, unanswerable_reason: null } })
    .on('answer', { text: 'France 2, Finland 1.' });
  const body = (await ask('Orders per country?')).json();
  expect(body.status).toBe('success');
  const sq = body.sub_queries[0];
  expect(sq.plan).toMatchObject({ kind: 'query' });
  expect(sq.rows.rows).toEqual([
    ['Finland', 1],
    ['France', 2],
  ]);
  expect(sq.validation).toContainEqual(expect.objectContaining({ name: 'schema', passed: true }));
  // The schema is in the system prompt (before the cache breakpoint), the question after it.
  const request = model.requestsOf('sql_draft')[0]!;
  expect(promptText(request)).toMatch(/TABLE customers/);
  expect(userText(request)).not.toMatch(/TABLE customers/);
  expect(request.body.tools[0].function).toMatchObject({ name: 'sql_draft', strict: true });
});

it('sends a draft that does not parse back with the problem, and takes the corrected one', async () => {
  const model = new PipelineModel(fake)
    .single('shop')
    .on('sql_draft', (_req, n) => ({
      json: {
        sql:
          n === 1
            ? 'SELECT country, COUNT(* FROM customers GROUP BY country'
            : 'SELECT COUNT(*) AS n FROM customers',
        unanswerable_reason: null,
      },
    }))
    .on('answer', { text: 'Two customers.' });
  const body = (await ask('How many customers?')).json();
  expect(body.status).toBe('success');
  expect(body.sub_queries[0].retry_count).toBe(1);
  const retry = userText(model.requestsOf('sql_draft')[1]!);
  expect(retry).toContain('COUNT(* FROM customers');
  expect(retry).toMatch(/does not parse/);
  expect(body.sub_queries[0].rows.rows).toEqual([[2]]);
});

it('sends a draft naming an unknown column back with the closest name', async () => {
  const model = new PipelineModel(fake)
    .single('shop')
    .on('sql_draft', (_req, n) => ({
      json: {
        sql: n === 1 ? 'SELECT SUM(amout) AS total FROM orders' : 'SELECT SUM(amount) AS total FROM orders',
        unanswerable_reason: null,
      },
    }))
    .on('answer', { text: 'The total is 37.75.' });
  const body = (await ask('What is the total amount of orders?')).json();
  expect(body.status).toBe('success');
  expect(userText(model.requestsOf('sql_draft')[1]!)).toMatch(/amout[\s\S]*amount/);
  expect(body.sub_queries[0].rows.rows).toEqual([[37.75]]);
});

it('never runs a write: the draft is refused before anything reaches the database', async () => {
  const model = new PipelineModel(fake)
    .single('shop')
    .on('sql_draft', { json: { sql: 'DELETE FROM orders', unanswerable_reason: null } });
  const body = (await ask('Remove every order')).json();
  expect(body.status).toBe('error');
  expect(body.errors[0].error_code).toMatch(/^SQL_(IMPORT_UNSUPPORTED|PARSE_ERROR)$/);
  expect(model.counts.sql_draft).toBe(3); // the first draft and max_retries (2) corrections
  expect(body.sub_queries[0].sql).toBeNull();
});

it('reports QUESTION_UNANSWERABLE when the model says the schema cannot answer', async () => {
  new PipelineModel(fake)
    .single('shop')
    .on('sql_draft', { json: { sql: null, unanswerable_reason: 'no weather data' } });
  const body = (await ask('What was the weather in Paris?')).json();
  expect(body.status).toBe('error');
  expect(body.errors[0]).toMatchObject({ error_code: 'QUESTION_UNANSWERABLE' });
  expect(body.errors[0].message).toMatch(/no weather data/);
});

it('answers a simple question on one datasource with two model calls: the planner and the answer', async () => {
  const model = new PipelineModel(fake)
    .on('sql_draft', { json: { sql: 'SELECT COUNT(*) AS n FROM orders', unanswerable_reason: null } })
    .on('answer', { text: 'There are 3 orders.' });
  const body = (await ask('How many orders are there?')).json();
  expect(body.status).toBe('success');
  expect(model.counts).toEqual({ sql_draft: 1, answer: 1 });
  expect(body.usage.total.calls).toBe(2);
  expect(body.reasoning).toContainEqual(expect.objectContaining({ node: 'decomposer', decision: 'single' }));
});

it('still asks the decomposer when the question may hold several intents', async () => {
  const model = new PipelineModel(fake)
    .on('decompose_question', {
      json: {
        sub_queries: [
          { intent: 'How many orders are there?', datasource_id: 'shop' },
          { intent: 'How many customers are there?', datasource_id: 'shop' },
        ],
      },
    })
    .on('sql_draft', (req) => ({
      json: {
        sql: /customers/.test(userText(req))
          ? 'SELECT COUNT(*) AS n FROM customers'
          : 'SELECT COUNT(*) AS n FROM orders',
        unanswerable_reason: null,
      },
    }))
    .on('answer', { text: '3 orders, 2 customers.' });
  const body = (await ask('How many orders are there, and how many customers?')).json();
  expect(model.counts.decompose_question).toBe(1);
  expect(body.sub_queries.map((s: { rows: { rows: unknown[][] } }) => s.rows.rows[0]![0])).toEqual([3, 2]);
});

it('sends a draft with a :placeholder back (no value to bind), and takes the one with the literal', async () => {
  const model = new PipelineModel(fake)
    .single('shop')
    .on('sql_draft', (_req, n) => ({
      json: {
        sql:
          n === 1
            ? 'SELECT COUNT(*) AS n FROM customers WHERE country = :country'
            : "SELECT COUNT(*) AS n FROM customers WHERE country = 'France'",
        unanswerable_reason: null,
      },
    }))
    .on('answer', { text: 'One customer.' });
  const body = (await ask('How many customers are in France?')).json();
  expect(body.status).toBe('success');
  expect(userText(model.requestsOf('sql_draft')[1]!)).toMatch(/placeholder \(:country\)/);
  expect(body.sub_queries[0].rows.rows).toEqual([[1]]);
});

it('takes a draft wrapped in a code fence, and tells a parse error with its line and column', async () => {
  const model = new PipelineModel(fake)
    .single('shop')
    .on('sql_draft', (_req, n) => ({
      json: {
        sql:
          n === 1
            ? 'SELECT COUNT(*) AS n\nFROM customers WHERE'
            : '```sql\nSELECT COUNT(*) AS n FROM orders\n```',
        unanswerable_reason: null,
      },
    }))
    .on('answer', { text: 'Three orders.' });
  const body = (await ask('How many orders are on record?')).json();
  expect(body.status).toBe('success');
  expect(userText(model.requestsOf('sql_draft')[1]!)).toMatch(/at line 2, column \d+/);
  expect(body.sub_queries[0].rows.rows).toEqual([[3]]);
});
