/** POST /api/v1/query/stream (spec 4.2 and 6): order, deltas, one terminal event, cancellation. */
import * as P from '../../src/engine/plan/build';
import { OperatorEvents, type OperatorEvent } from '../../src/engine/events/operator-events';
import { startApp, type RunningApp } from '../support/app';
import { shopOn } from '../support/databases';
import { FakeModelServer } from '../support/fake-model';
import { PipelineModel } from '../support/pipeline-model';
import { openSse } from '../support/sse';

const SUMMARY = 'There are 3 orders in all, from 2 customers.';
const plan = P.query(P.select({ columns: [P.item(P.countStar(), 'orders')], from: P.table('orders') }));

let fake: FakeModelServer;
let app: RunningApp;
beforeAll(async () => {
  fake = await FakeModelServer.start();
  const ds = await shopOn('sqlite');
  app = await startApp({
    api: { role: 'analyst' },
    datasources: [ds.config],
    llm: { provider: 'openai_compatible', model: 'fake-model', base_url: fake.openaiBaseUrl },
    // The decomposer's answer is scripted here: always ask it.
    settings: { pipeline: { decompose: 'always' } },
  });
});
afterAll(async () => {
  await app.close();
  await fake.close();
});
beforeEach(() => fake.reset());

describe('the event stream', () => {
  it('sends run.started first, steps in order, deltas that rebuild the answer, and one run.finished last', async () => {
    new PipelineModel(fake)
      .single('shop')
      .on('query_plan', { json: { plan, unanswerable_reason: null } })
      .on('answer', { text: SUMMARY });
    const sse = openSse(`${app.url}/api/v1/query/stream`, { natural_language: 'How many orders are there?' });
    expect(await sse.status).toBe(200);
    const headers = await sse.headers;
    expect(headers['content-type']).toMatch(/^text\/event-stream/);
    expect(headers['cache-control']).toMatch(/\bno-cache\b/);
    expect(headers['x-accel-buffering']).toBe('no');
    await sse.ended;
    const names = sse.events.map((e) => e.event);
    expect(names[0]).toBe('run.started');
    expect(names.at(-1)).toBe('run.finished');
    expect(names.filter((n) => n === 'run.finished' || n === 'run.failed')).toHaveLength(1);
    // Each event's `event:` line names the envelope it carries.
    for (const e of sse.events) expect(e.data.name).toBe(e.event);
    const traceIds = new Set(sse.events.map((e) => e.data.trace_id));
    expect(traceIds.size).toBe(1);

    const steps = sse.events.filter((e) => e.event === 'node.started').map((e) => e.data.data.node);
    expect(steps).toEqual([
      'datasource_resolver',
      'decomposer',
      'verified_resolver',
      'ast_planner',
      'logical_validator',
      'generator',
      'executor',
      'answer_synthesizer',
    ]);
    const finishedOk = sse.events
      .filter((e) => e.event === 'node.finished')
      .every((e) => e.data.data.ok === true);
    expect(finishedOk).toBe(true);
    // The manifest comes before the answer, so a client may page rows while the answer streams.
    expect(names.indexOf('result.manifest')).toBeLessThan(names.indexOf('answer.delta'));

    const final = sse.events.at(-1)!.data.data;
    expect(final.status).toBe('success');
    expect(final.duration_s).toEqual(expect.any(Number));
    const result = final.result;
    const join = (field: string) =>
      sse.events
        .filter((e) => e.event === 'answer.delta' && e.data.data.field === field)
        .map((e) => e.data.data.text)
        .join('');
    expect(
      sse.events.filter((e) => e.event === 'answer.delta' && e.data.data.field === 'summary').length,
    ).toBeGreaterThan(1);
    expect(join('summary')).toBe(result.final_answer.summary);
    expect(join('content')).toBe(result.final_answer.content);
    expect(result.final_answer.summary).toBe(SUMMARY);
    expect(sse.events.find((e) => e.event === 'result.manifest')!.data.data.results).toEqual(
      result.result_manifest,
    );
    // The streamed answer reports the same usage as an unstreamed call would.
    expect(result.usage.nodes.answer_synthesizer).toMatchObject({
      calls: 1,
      input_tokens: 100,
      output_tokens: 20,
    });
  });

  it('ends a failed run with run.finished status error, not an HTTP error', async () => {
    new PipelineModel(fake).on('decompose_question', { fail: 'rate_limit' });
    const sse = openSse(`${app.url}/api/v1/query/stream`, { natural_language: 'How many orders?' });
    await sse.ended;
    const last = sse.events.at(-1)!;
    expect(last.event).toBe('run.finished');
    expect(last.data.data.status).toBe('error');
    expect(last.data.data.result.errors[0].error_code).toBe('PROVIDER_RATE_LIMITED');
  });

  it('cancels the run when the client disconnects: no model call after the disconnect', async () => {
    new PipelineModel(fake)
      .single('shop')
      .on('query_plan', { json: { plan, unanswerable_reason: null }, delayMs: 400 })
      .on('answer', { text: SUMMARY });
    // A question of its own: one asked before would be served from the plan cache, with no planner call.
    const ended = new Promise<OperatorEvent>((resolve) => {
      const sub = app.engine.get(OperatorEvents).subscribe((e) => {
        if (e.name !== 'run.ended') return;
        sub.unsubscribe();
        resolve(e);
      });
    });
    const sse = openSse(`${app.url}/api/v1/query/stream`, { natural_language: 'Count the orders, please' });
    await sse.waitFor((e) => e.event === 'node.started' && e.data.data.node === 'ast_planner');
    sse.close();
    expect((await ended).data).toMatchObject({ status: 'cancelled' });
    const names = fake.requests.map((r) => r.body?.tools?.[0]?.function?.name ?? 'answer');
    // The planner call in flight at the disconnect is the last one: no retry, no answer call.
    expect(names).toEqual(['decompose_question', 'query_plan']);
  });

  it('answers 401 without a role, before any event', async () => {
    const noRole = await startApp({
      datasources: [(await shopOn('sqlite')).config],
      llm: { provider: 'openai_compatible', model: 'm', base_url: fake.openaiBaseUrl },
    });
    try {
      const sse = openSse(`${noRole.url}/api/v1/query/stream`, { natural_language: 'x' });
      expect(await sse.status).toBe(401);
      await sse.ended;
      expect(fake.requests).toHaveLength(0);
    } finally {
      await noRole.close();
    }
  });
});
