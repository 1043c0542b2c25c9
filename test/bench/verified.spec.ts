/**
 * Smoke test of `npm run bench -- verified`: the verified queries of a config asked through the
 * real pipeline with the model of an llm section (here the scripted model, which writes the
 * verified SQL for one query and other SQL for the other): execution match and the misses.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runVerifiedBench } from '../../bench/verified';
import { makeSqliteFixture } from '../support/app';
import { FakeModelServer } from '../support/fake-model';
import { PipelineModel, questionOf } from '../support/pipeline-model';

let fake: FakeModelServer;
beforeAll(async () => {
  fake = await FakeModelServer.start();
});
afterAll(() => fake.close());

it('scores each verified question by execution match, with calls and tokens per question', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nl2sql-bench-verified-'));
  const config = join(dir, 'nl2sql.yaml');
  writeFileSync(
    config,
    JSON.stringify({
      api: { role: 'analyst' },
      datasources: [{ id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } }],
      verified_queries: [
        {
          id: 'orders_of_country',
          datasource_id: 'shop',
          question: 'How many orders came from :country?',
          paraphrases: ['Orders placed from :country'],
          sql: 'SELECT count(*) AS orders FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.country = :country',
          params: { country: { type: 'string', description: 'customers.country, e.g. Finland' } },
        },
        {
          id: 'all_amounts',
          datasource_id: 'shop',
          question: 'List every order amount',
          sql: 'SELECT amount FROM orders',
        },
      ],
      // The config's own model is never asked: --llm replaces it.
      llm: { provider: 'openai_compatible', model: 'unused', base_url: 'http://127.0.0.1:9/v1' },
      storage: {
        results: { path: join(dir, 'r') },
        traces: { path: join(dir, 't') },
        index: { path: join(dir, 'i') },
      },
    }),
  );
  new PipelineModel(fake)
    .single('shop')
    .on('sql_draft', (req) => ({
      json: {
        sql: questionOf(req).includes('Finland')
          ? "SELECT count(*) AS n FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.country = 'Finland'"
          : 'SELECT amount FROM orders WHERE amount > 10',
        unanswerable_reason: null,
      },
    }))
    .on('answer', { text: 'Done.' });
  const f = await runVerifiedBench({
    config,
    llm: {
      provider: 'openai_compatible',
      model: 'fake-model',
      base_url: fake.openaiBaseUrl,
      planner_format: 'sql',
    },
  });
  expect(f).toMatchObject({
    suite: 'verified',
    model: 'openai_compatible/fake-model',
    questions: 3,
    matched: 2,
    mismatched: 1,
    execution_match: 0.667,
    calls_per_question: 2,
  });
  expect(f.tokens_per_question).toBeGreaterThan(0);
  expect(f.misses).toEqual([
    {
      query_id: 'all_amounts',
      question: 'List every order amount',
      status: 'mismatch',
      reason: expect.stringMatching(/row count 2, expected 3/),
    },
  ]);
});
