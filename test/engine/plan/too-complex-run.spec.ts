/**
 * Through a whole run (real app over HTTP, the real `openai` client against the scripted fake
 * model): a planner answer nested too deep, as a SQL draft or as a plan, goes back to the planner
 * with what is wrong (PLAN_TOO_COMPLEX for the plan problem), and its next answer runs. Nothing
 * ends in INTERNAL_ERROR.
 */
import { startApp, makeSqliteFixture, type RunningApp } from '../../support/app';
import { FakeModelServer } from '../../support/fake-model';
import { http } from '../../support/http';
import { PipelineModel, userText } from '../../support/pipeline-model';
import { MAX_PLAN_DEPTH, MAX_SQL_NESTING } from '../../../src/engine/plan';
import * as b from '../../../src/engine/plan/build';
import type * as T from '../../../src/engine/plan/types';

let fake: FakeModelServer;
beforeAll(async () => {
  fake = await FakeModelServer.start();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

async function appWith(plannerFormat: 'sql' | 'plan'): Promise<RunningApp> {
  return startApp({
    api: { role: 'analyst' },
    datasources: [{ id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } }],
    llm: {
      provider: 'openai_compatible',
      model: 'fake-model',
      base_url: fake.openaiBaseUrl,
      planner_format: plannerFormat,
    },
    settings: { pipeline: { decompose: 'always' } },
  });
}

const ask = (app: RunningApp) =>
  http('POST', `${app.url}/api/v1/query`, { body: { natural_language: 'Total of all orders?' } });

const DEEP_SQL = `SELECT id FROM ${'(SELECT id FROM '.repeat(1000)}orders${') AS t'.repeat(1000)}`;
const GOOD_SQL = 'SELECT SUM(amount) AS total FROM orders';

function deepPlan(n: number): T.Query {
  let e: T.Expr = b.col('amount');
  for (let i = 0; i < n; i++) e = b.arith('+', e, b.lit(0));
  return b.query(b.select({ columns: [b.item(b.agg('sum', e), 'total')], from: b.table('orders') }));
}
const goodPlan = (): T.Query =>
  b.query(b.select({ columns: [b.item(b.agg('sum', b.col('amount')), 'total')], from: b.table('orders') }));

async function runWith(format: 'sql' | 'plan', first: unknown, second: unknown) {
  const app = await appWith(format);
  try {
    const step = format === 'sql' ? 'sql_draft' : 'query_plan';
    const key = format === 'sql' ? 'sql' : 'plan';
    const model = new PipelineModel(fake)
      .single('shop')
      .on(step, (_req, n) => ({ json: { [key]: n === 1 ? first : second, unanswerable_reason: null } }))
      .on('answer', { text: 'The orders total 37.75.' });
    const res = await ask(app);
    expect(res.status).toBe(200);
    return { body: res.json(), count: model.counts[step], retryPrompt: userText(model.requestsOf(step)[1]!) };
  } finally {
    await app.close();
  }
}

it('a SQL draft nested 1,000 deep is sent back to the planner as PLAN_TOO_COMPLEX and the retry runs', async () => {
  const { body, count, retryPrompt } = await runWith('sql', DEEP_SQL, GOOD_SQL);
  expect(body.status).toBe('success');
  expect(body.sub_queries[0].retry_count).toBe(1);
  expect(count).toBe(2);
  expect(retryPrompt).toMatch(new RegExp(`nests more than ${MAX_SQL_NESTING} levels deep`));
});

it('a plan nested past the plan limit is sent back to the planner as PLAN_TOO_COMPLEX and the retry runs', async () => {
  const { body, count, retryPrompt } = await runWith('plan', deepPlan(MAX_PLAN_DEPTH + 20), goodPlan());
  expect(body.status).toBe('success');
  expect(body.sub_queries[0].retry_count).toBe(1);
  expect(count).toBe(2);
  expect(retryPrompt).toMatch(new RegExp(`nests more than ${MAX_PLAN_DEPTH} levels deep`));
});

it('a plan answer nested 1,000 deep is refused before its schema check recurses, and the model asked again', async () => {
  const { body, count, retryPrompt } = await runWith('plan', deepPlan(1000), goodPlan());
  expect(body.status).toBe('success');
  expect(count).toBe(2);
  expect(retryPrompt).toMatch(/nests more than \d+ levels deep/);
});
