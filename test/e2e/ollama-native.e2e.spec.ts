/**
 * A question over real HTTP with the `ollama` preset on Ollama's native wire (issue 25, item 4):
 * every structured step goes to `/api/chat` with its JSON schema in `format` and a sized
 * `options.num_ctx`, the answer step streams NDJSON, and the run's usage adds up Ollama's
 * `prompt_eval_count` / `eval_count`.
 */
import { startApp, type RunningApp } from '../support/app';
import { shopOn } from '../support/databases';
import { FakeModelServer, type RecordedRequest } from '../support/fake-model';
import { http } from '../support/http';
import { openSse } from '../support/sse';

let fake: FakeModelServer;
let app: RunningApp;

beforeAll(async () => {
  fake = await FakeModelServer.start();
  app = await startApp({
    api: { role: 'analyst' },
    datasources: [(await shopOn('sqlite')).config],
    llm: {
      provider: 'ollama',
      model: 'qwen2.5-coder:3b',
      base_url: fake.ollamaBaseUrl,
      planner_format: 'sql',
    },
    settings: { pipeline: { plan_cache_size: 0 } },
  });
});
afterAll(async () => {
  await app?.close();
  await fake.close();
});

/** The step a native request is for: from the properties of its `format` schema (it carries no name). */
function stepOf(req: RecordedRequest): string {
  const props = Object.keys(req.body?.format?.properties ?? {});
  if (props.includes('sql')) return 'sql_draft';
  if (props.includes('sub_queries')) return 'decompose';
  return props.length ? `other:${props.join(',')}` : 'answer';
}

/** Answers each step as a small model would; an unexpected step gets the fake's 500. */
function script(): void {
  fake.reset();
  fake.onRequest((req) => {
    switch (stepOf(req)) {
      case 'sql_draft':
        return {
          json: { sql: 'SELECT COUNT(*) AS n FROM customers', unanswerable_reason: null },
          usage: { input: 900, output: 30 },
        };
      case 'decompose':
        return {
          json: { sub_queries: [{ intent: 'How many customers are there?', datasource_id: 'shop' }] },
          usage: { input: 300, output: 20 },
        };
      case 'answer':
        return { text: 'There are 2 customers.', usage: { input: 200, output: 8 } };
      default:
        return undefined;
    }
  });
}

it("runs a question with format and num_ctx on every structured step, and adds up Ollama's token counts", async () => {
  script();
  const res = await http('POST', `${app.url}/api/v1/query`, {
    body: { natural_language: 'How many customers are there?' },
  });
  const body = res.json();
  expect(body.status).toBe('success');
  expect(body.sub_queries[0].rows.rows).toEqual([[2]]);
  expect(body.final_answer.summary).toContain('There are 2 customers.');

  expect(fake.requests.every((r) => r.wire === 'ollama' && r.path === '/api/chat')).toBe(true);
  const structured = fake.requests.filter((r) => stepOf(r) !== 'answer');
  expect(structured.map(stepOf)).toContain('sql_draft');
  for (const r of structured) {
    expect(r.body).toMatchObject({
      model: 'qwen2.5-coder:3b',
      stream: false,
      keep_alive: '30m',
      options: { num_ctx: expect.any(Number), seed: 42, temperature: 0 },
    });
    expect(r.body.format).toMatchObject({ type: 'object' });
    // Sized from the prompt: a power of two at least as large as the prompt's characters / 3.
    const chars = r.body.messages.reduce((n: number, m: { content: string }) => n + m.content.length, 0);
    expect(r.body.options.num_ctx).toBeGreaterThanOrEqual(chars / 3);
    expect(Math.log2(r.body.options.num_ctx) % 1).toBe(0);
  }
  const answers = fake.requests.filter((r) => stepOf(r) === 'answer');
  expect(answers).toHaveLength(1);
  expect(answers[0]!.body.format).toBeUndefined();

  // Usage is Ollama's counts, per call, summed.
  const inputs = { sql_draft: 900, decompose: 300, answer: 200 } as Record<string, number>;
  const expected = fake.requests.reduce((n, r) => n + (inputs[stepOf(r)] ?? 0), 0);
  expect(body.usage.total.input_tokens).toBe(expected);
  expect(body.usage.total.calls).toBe(fake.requests.length);
});

it("streams the answer step as NDJSON to the run's answer.delta events on the stream route", async () => {
  script();
  const sse = openSse(`${app.url}/api/v1/query/stream`, {
    natural_language: 'How many customers are there?',
  });
  await sse.ended;
  expect(sse.events.at(-1)?.event).toBe('run.finished');
  const answer = fake.requests.find((r) => stepOf(r) === 'answer')!;
  expect(answer.stream).toBe(true);
  expect(answer.body).toMatchObject({ stream: true, options: { num_ctx: expect.any(Number) } });
  const deltas = sse.events.filter((e) => e.event === 'answer.delta').map((e) => e.data.data.text as string);
  expect(deltas.length).toBeGreaterThan(1);
  expect(deltas.join('')).toContain('There are 2 customers.');
  // The structured steps stayed unstreamed.
  expect(fake.requests.filter((r) => stepOf(r) !== 'answer').every((r) => r.stream === false)).toBe(true);
});
