/**
 * Built-in wire clients run their calls in the model-call thread (wire-thread.ts): the client the
 * engine holds must behave as the wire client itself, over real HTTP to the fake model server.
 */
import { Worker } from 'node:worker_threads';
import { LlmError } from '../../../src/engine/llm/errors';
import type { JsonSchema, ResolvedAgent } from '../../../src/engine/llm/providers/provider';
import { ThreadedModelClient } from '../../../src/engine/llm/providers/wire-thread';
import { FakeModelServer } from '../../support/fake-model';

let fake: FakeModelServer;
beforeAll(async () => {
  fake = await FakeModelServer.start();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

function agent(over: Partial<ResolvedAgent> = {}): ResolvedAgent {
  return {
    name: 'default',
    provider: 'openai_compatible',
    model: 'fake-model',
    temperature: null,
    apiKey: 'sk-thread-test-0123456789',
    baseUrl: fake.openaiBaseUrl,
    maxTokens: null,
    timeoutS: 5,
    maxRetries: 0,
    headers: {},
    structuredOutput: 'json_mode',
    parseRetries: 0,
    ...over,
  };
}

const openai = () =>
  new ThreadedModelClient({ kind: 'openai', label: 'Test server', tokenParam: 'max_tokens' }, agent());
const ask = { system: 'Be brief.', messages: [{ role: 'user' as const, content: 'Hello?' }] };

test('answers with the text, usage and model the wire reads, and sends what the wire sends', async () => {
  fake.reply({ text: 'Hi there.' });
  const client = openai();
  const answer = await client.complete(ask);
  expect(answer).toMatchObject({ text: 'Hi there.', model: 'fake-model' });
  expect(answer.usage?.inputTokens).toBeGreaterThan(0);
  expect(fake.requests[0]?.headers.authorization).toBe('Bearer sk-thread-test-0123456789');
  expect(fake.requests[0]?.body.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
  await client.close();
});

test('a streamed call hands over every piece, in order, before the answer', async () => {
  fake.reply({ text: 'One two three four.' });
  const client = openai();
  const pieces: string[] = [];
  const answer = await client.complete({ ...ask, onDelta: (t) => pieces.push(t) });
  expect(fake.requests[0]?.stream).toBe(true);
  expect(pieces.length).toBeGreaterThan(0);
  expect(pieces.join('')).toBe(answer.text);
  expect(answer.text).toBe('One two three four.');
  await client.close();
});

test('a provider failure comes back as the same LlmError, code and message', async () => {
  fake.reply({ fail: 'auth', message: 'bad key' });
  const client = openai();
  const failure = await client.complete(ask).catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(LlmError);
  expect(failure).toMatchObject({ code: 'PROVIDER_AUTH_FAILED', provider: 'openai_compatible' });
  expect((failure as LlmError).message).not.toContain('sk-thread-test-0123456789');
  await client.close();
});

test('the signal cancels a call in flight', async () => {
  fake.reply({ hang: true });
  const client = openai();
  const controller = new AbortController();
  const call = client.complete({ ...ask, signal: controller.signal });
  while (!fake.requests.length) await new Promise((r) => setTimeout(r, 5));
  controller.abort(new Error('the run was cancelled'));
  // What the wire itself says of a call its caller aborted (error-mapping.ts).
  await expect(call).rejects.toMatchObject({
    code: 'PROVIDER_ERROR',
    message: expect.stringContaining('was aborted'),
  });
  await client.close();
});

test('close ends a call in flight and refuses new ones with LLM_CLIENT_CLOSED', async () => {
  fake.reply({ hang: true });
  const client = openai();
  const call = client.complete(ask);
  while (!fake.requests.length) await new Promise((r) => setTimeout(r, 5));
  await client.close();
  await expect(call).rejects.toMatchObject({ code: 'LLM_CLIENT_CLOSED' });
  await expect(client.complete(ask)).rejects.toMatchObject({ code: 'LLM_CLIENT_CLOSED' });
});

test('the anthropic wire runs in the thread too', async () => {
  fake.reply({ text: 'Bonjour.' });
  const client = new ThreadedModelClient(
    { kind: 'anthropic', label: 'Anthropic' },
    agent({ provider: 'anthropic', baseUrl: fake.anthropicBaseUrl }),
  );
  const answer = await client.complete(ask);
  expect(answer.text).toBe('Bonjour.');
  expect(fake.requests[0]?.path).toBe('/v1/messages');
  await client.close();
});

test('an output schema crosses once per thread and every request still carries it', async () => {
  const plan: JsonSchema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
  const other: JsonSchema = { type: 'object', properties: { s: { type: 'string' } }, required: ['s'] };
  const sentSchema = (i: number) => fake.requests[i]?.body.response_format?.json_schema?.schema;
  const structured = (schema: JsonSchema, name: string) => ({
    ...ask,
    output: { method: 'json_schema' as const, schema, name },
  });
  // What the engine posts to the thread: each schema once, then only its id with each call.
  const posted = jest.spyOn(Worker.prototype, 'postMessage');
  const schemasPosted = () =>
    posted.mock.calls.filter(([m]) => (m as { type?: string }).type === 'schema').map(([m]) => m.schema);
  const callsCarrySchema = () =>
    posted.mock.calls.some(([m]) => (m as { type?: string }).type === 'call' && 'schema' in m.request.output);
  try {
    fake.reply({ json: { n: 1 } }, { json: { s: 'a' } }, { json: { n: 2 } });
    const client = openai();
    expect((await client.complete(structured(plan, 'plan'))).text).toBe('{"n":1}');
    expect((await client.complete(structured(other, 'other'))).text).toBe('{"s":"a"}');
    expect((await client.complete(structured(plan, 'plan'))).text).toBe('{"n":2}');
    expect([sentSchema(0), sentSchema(1), sentSchema(2)]).toEqual([plan, other, plan]);
    expect(schemasPosted()).toEqual([plan, other]);
    expect(callsCarrySchema()).toBe(false);
    // The last client closed ends the thread; the next thread is sent the schema again.
    await client.close();
    fake.reply({ json: { n: 3 } });
    const again = openai();
    expect((await again.complete(structured(plan, 'plan'))).text).toBe('{"n":3}');
    expect(sentSchema(3)).toEqual(plan);
    expect(schemasPosted()).toEqual([plan, other, plan]);
    await again.close();
  } finally {
    posted.mockRestore();
  }
});
