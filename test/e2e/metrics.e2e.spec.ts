/**
 * GET /metrics over real HTTP: served without a role, in Prometheus' text format; a run moves the
 * run, step, model, token, SQL and HTTP figures; no label carries the question or a value.
 */
import { makeSqliteFixture, startApp, type RunningApp } from '../support/app';
import { FakeModelServer } from '../support/fake-model';
import { http } from '../support/http';
import { PipelineModel } from '../support/pipeline-model';

let fake: FakeModelServer;
let app: RunningApp;

beforeAll(async () => {
  fake = await FakeModelServer.start();
  app = await startApp({
    api: { role_header: 'X-Roles' },
    datasources: [{ id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } }],
    llm: {
      provider: 'openai_compatible',
      model: 'fake-model',
      base_url: fake.openaiBaseUrl,
      planner_format: 'sql',
    },
  });
});
afterAll(async () => {
  await app?.close();
  await fake.close();
});

const scrape = async () => {
  const res = await http('GET', `${app.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text;
};

/** The value of one sample, e.g. `nl2sql_runs_total{status="success",source="llm"}`; 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      return Number(line.split(' ').pop());
  }
  return 0;
}

it('counts a run, its steps, model calls, tokens, SQL and HTTP requests, with no question in any label', async () => {
  const before = await scrape();
  new PipelineModel(fake)
    .single('shop')
    .on('sql_draft', {
      json: {
        sql: "SELECT COUNT(*) AS n FROM customers WHERE country = 'Finland'",
        unanswerable_reason: null,
      },
    })
    .on('answer', { text: 'One customer.' });
  const res = await http('POST', `${app.url}/api/v1/query`, {
    body: { natural_language: 'How many secretive customers live in Finland?' },
    headers: { 'X-Roles': 'analyst' },
  });
  expect(res.json().status).toBe('success');

  const after = await scrape();
  const runs = { status: 'success', source: 'generated' };
  expect(sample(after, 'nl2sql_runs_total', runs)).toBe(sample(before, 'nl2sql_runs_total', runs) + 1);
  expect(
    sample(after, 'nl2sql_step_duration_seconds_count', { node: 'ast_planner', ok: 'true' }),
  ).toBeGreaterThan(
    sample(before, 'nl2sql_step_duration_seconds_count', { node: 'ast_planner', ok: 'true' }),
  );
  const planner = { agent: 'ast_planner', model: 'fake-model', node: 'ast_planner', outcome: 'ok' };
  expect(sample(after, 'nl2sql_model_calls_total', planner)).toBe(
    sample(before, 'nl2sql_model_calls_total', planner) + 1,
  );
  expect(sample(after, 'nl2sql_model_tokens_total', { model: 'fake-model', kind: 'input' })).toBeGreaterThan(
    0,
  );
  expect(sample(after, 'nl2sql_sql_rows_total', { datasource_id: 'shop' })).toBeGreaterThanOrEqual(1);
  expect(
    sample(after, 'nl2sql_sql_duration_seconds_count', { datasource_id: 'shop', ok: 'true' }),
  ).toBeGreaterThan(0);
  expect(
    sample(after, 'nl2sql_http_requests_total', { method: 'POST', route: '/api/v1/query', status: '200' }),
  ).toBe(
    sample(before, 'nl2sql_http_requests_total', { method: 'POST', route: '/api/v1/query', status: '200' }) +
      1,
  );
  expect(after).toContain('nl2sql_datasource_active_statements{datasource_id="shop"} 0');
  expect(after).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  // Nothing of the question, its value or the caller's role in the figures.
  expect(after).not.toMatch(/secretive|Finland|analyst/i);
});

it('labels requests by route template, not by path, and unknown paths as unmatched', async () => {
  await http('GET', `${app.url}/api/v1/query/abc/results/def`);
  await http('GET', `${app.url}/no/such/path/123`);
  const text = await scrape();
  expect(text).toContain('route="/api/v1/query/:request_id/results/:result_id"');
  expect(text).toMatch(/nl2sql_http_requests_total\{method="GET",route="unmatched",status="404"\} \d/);
  expect(text).not.toContain('/no/such/path');
});
