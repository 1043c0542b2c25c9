/**
 * The verified-query fast path over real HTTP: a question close enough to a verified question,
 * whose parameters the question names, is answered with no verified-resolver, planner or answer
 * model call (source verified, a template summary); a near miss still asks the model to confirm.
 */
import { startApp, type RunningApp } from '../support/app';
import { shopOn } from '../support/databases';
import { FakeModelServer } from '../support/fake-model';
import { http } from '../support/http';
import { PipelineModel } from '../support/pipeline-model';
import { openSse } from '../support/sse';

let fake: FakeModelServer;
let app: RunningApp;

beforeAll(async () => {
  fake = await FakeModelServer.start();
  app = await startApp({
    api: { role: 'analyst' },
    datasources: [(await shopOn('sqlite')).config],
    llm: { provider: 'openai_compatible', model: 'fake-model', base_url: fake.openaiBaseUrl, api_key: 'k' },
    verified_queries: [
      {
        id: 'orders_in_country',
        datasource_id: 'shop',
        question: 'How many orders came from France?',
        paraphrases: ['Number of orders placed from :country'],
        sql: 'SELECT count(*) AS orders FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.country = :country',
        params: { country: { type: 'string', description: 'Country name as stored' } },
      },
      {
        id: 'orders_over',
        datasource_id: 'shop',
        question: 'Which orders are above 10?',
        sql: 'SELECT id, amount FROM orders WHERE amount > :minimum ORDER BY id',
        params: { minimum: { type: 'number', description: 'Smallest amount, exclusive' } },
      },
    ],
  });
});
afterAll(async () => {
  await app?.close();
  await fake.close();
});
beforeEach(() => fake.reset());

const ask = (natural_language: string) =>
  http('POST', `${app.url}/api/v1/query`, { body: { natural_language } });

it('answers a matching question with the value it names and no model call after routing', async () => {
  const model = new PipelineModel(fake).single('shop');
  const body = (await ask('How many orders came from Finland?')).json();
  expect(body.status).toBe('success');
  expect(body.source).toEqual({
    type: 'verified',
    id: 'orders_in_country',
    datasource_id: 'shop',
    params: { country: 'Finland' },
  });
  expect(body.sub_queries[0].plan_source).toBe('verified');
  expect(body.sub_queries[0].rows.rows).toEqual([[1]]);
  expect(body.final_answer.summary).toBe("From the verified query 'orders_in_country': orders is 1.");
  expect(model.counts.match_verified_query).toBeUndefined();
  expect(model.counts.query_plan).toBeUndefined();
  expect(model.counts.answer).toBeUndefined();
  expect(body.usage.nodes.verified_resolver).toBeUndefined();
  expect(body.reasoning).toContainEqual(
    expect.objectContaining({ node: 'verified_resolver', matched: true, method: 'direct' }),
  );
});

it('fills a number typed by its parameter, and the streamed summary joins to the answer', async () => {
  new PipelineModel(fake).single('shop');
  const sse = openSse(`${app.url}/api/v1/query/stream`, { natural_language: 'Which orders are above 8?' });
  await sse.ended;
  const last = sse.events.at(-1)!;
  expect(last.event).toBe('run.finished');
  const result = last.data.data.result;
  expect(result.source.params).toEqual({ minimum: 8 });
  expect(result.sub_queries[0].rows.rows).toEqual([
    [1, 10.5],
    [2, 20],
  ]);
  const summary = sse.events
    .filter((e) => e.event === 'answer.delta' && e.data.data.field === 'summary')
    .map((e) => e.data.data.text)
    .join('');
  expect(summary).toBe(result.final_answer.summary);
  expect(summary).toMatch(/2 rows/);
});

it('asks the model to confirm a near miss (the same question with a condition more)', async () => {
  const model = new PipelineModel(fake)
    .single('shop')
    .on('match_verified_query', { json: { matches: false, params: { country: null } } })
    .on('query_plan', { json: { plan: null, unanswerable_reason: 'not in this test' } });
  const body = (await ask('How many orders came from Finland last year?')).json();
  expect(model.counts.match_verified_query).toBe(1);
  expect(body.source.type).toBe('generated');
});

it('asks the model when a value the question names is not stored (nothing to fill)', async () => {
  const model = new PipelineModel(fake)
    .single('shop')
    .on('match_verified_query', { json: { matches: true, params: { country: 'Spain' } } })
    .on('answer', { text: 'No orders came from Spain.' });
  const body = (await ask('How many orders came from Spain?')).json();
  expect(model.counts.match_verified_query).toBe(1);
  expect(body.source).toMatchObject({ type: 'verified', params: { country: 'Spain' } });
  expect(body.final_answer.summary).toBe('No orders came from Spain.');
});
