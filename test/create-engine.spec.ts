/** Programmatic use (issue 5, item 10): an engine built from an object, asked a question, no HTTP. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as P from '../src/engine/plan/build';
import { createEngine } from '../src/create-engine';
import { makeSqliteFixture } from './support/app';
import { FakeModelServer } from './support/fake-model';
import { PipelineModel } from './support/pipeline-model';

it('answers a question from TypeScript without the HTTP layer', async () => {
  const fake = await FakeModelServer.start();
  const dir = mkdtempSync(join(tmpdir(), 'nl2sql-prog-'));
  const engine = await createEngine({
    datasources: [{ id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } }],
    llm: {
      provider: 'openai_compatible',
      model: 'fake-model',
      base_url: fake.openaiBaseUrl,
      planner_format: 'plan',
    },
    storage: {
      results: { path: join(dir, 'results') },
      traces: { path: join(dir, 'traces') },
      index: { path: join(dir, 'index') },
    },
  });
  try {
    const plan = P.query(
      P.select({ columns: [P.item(P.countStar(), 'customers')], from: P.table('customers') }),
    );
    new PipelineModel(fake)
      .single('shop')
      .on('query_plan', { json: { plan, unanswerable_reason: null } })
      .on('answer', { text: 'There are 2 customers.' });
    const answer = await engine.ask('How many customers are there?', { roles: ['analyst'] });
    expect(answer.status).toBe('success');
    expect(answer.sub_queries[0]?.rows?.rows).toEqual([[2]]);
    expect(answer.final_answer?.summary).toBe('There are 2 customers.');
    // A blank question is refused before any model call.
    const calls = fake.requests.length;
    await expect(engine.ask(' \n\t ', { roles: ['analyst'] })).rejects.toMatchObject({
      code: 'REQUEST_INVALID',
      message: 'the question is blank',
    });
    expect(fake.requests).toHaveLength(calls);
  } finally {
    await engine.close();
    await fake.close();
  }
});

it('refuses a configuration object with problems, naming them', async () => {
  await expect(createEngine({ datasources: [{ id: 'x', type: 'sqlite', conection: {} }] })).rejects.toThrow(
    /did you mean 'connection'/,
  );
});
