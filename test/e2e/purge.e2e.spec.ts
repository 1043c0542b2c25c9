/** Retention (spec 1, 8): the purge removes traces and results older than max_age_days, and only those. */
import { existsSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import * as P from '../../src/engine/plan/build';
import { startApp, type RunningApp } from '../support/app';
import { shopOn } from '../support/databases';
import { FakeModelServer } from '../support/fake-model';
import { http } from '../support/http';
import { PipelineModel } from '../support/pipeline-model';
import { ENGINE_CONFIG, type EngineConfig } from '../../src/engine/engine-config';
import { RetentionService } from '../../src/engine/lifecycle/retention.service';

let fake: FakeModelServer;
let app: RunningApp;
beforeAll(async () => {
  fake = await FakeModelServer.start();
  app = await startApp({
    api: { role: 'analyst' },
    datasources: [(await shopOn('sqlite')).config],
    llm: { provider: 'openai_compatible', model: 'fake-model', base_url: fake.openaiBaseUrl },
    storage: {},
  });
  const plan = P.query(P.select({ columns: [P.col('id')], from: P.table('orders') }));
  new PipelineModel(fake)
    .single('shop')
    .on('query_plan', { json: { plan, unanswerable_reason: null } })
    .on('answer', { text: 'Three orders.' });
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

async function run(question: string): Promise<{ traceId: string; tracePath: string }> {
  const body = (
    await http('POST', `${app.url}/api/v1/query`, { body: { natural_language: question } })
  ).json();
  expect(body.status).toBe('success');
  return { traceId: body.trace_id, tracePath: body.trace_path };
}

it('removes the old run and keeps the recent one', async () => {
  const old = await run('List the order ids');
  const recent = await run('Which order ids exist?');
  const { results } = app.engine.get<EngineConfig>(ENGINE_CONFIG).storage;
  const oldResults = join(results.path, 'default', old.traceId);
  expect(existsSync(oldResults)).toBe(true);
  const longAgo = new Date(Date.now() - 31 * 24 * 3600 * 1000);
  utimesSync(oldResults, longAgo, longAgo);
  utimesSync(old.tracePath, longAgo, longAgo);

  const report = await app.engine.get(RetentionService).purge();
  expect(report.removed).toEqual({ results: 1, traces: 1 });
  expect(report.errors).toEqual([]);
  expect(existsSync(oldResults)).toBe(false);
  expect(existsSync(old.tracePath)).toBe(false);
  expect(existsSync(recent.tracePath)).toBe(true);
  expect((await http('GET', `${app.url}/api/v1/query/${old.traceId}/results/sq1`)).status).toBe(404);
  expect((await http('GET', `${app.url}/api/v1/query/${recent.traceId}/results/sq1`)).status).toBe(200);
});
