/**
 * Usage and cost: call records on both wires, streamed and unstreamed alike, cached and
 * cache-written tokens, no usage reported, unpriced models, and the QuestionUsage roll-up.
 */
import { PriceTable } from '../../../src/engine/llm/prices';
import { questionUsage, type CallRecord } from '../../../src/engine/llm/usage';
import { FakeModelServer } from '../../support/fake-model';
import { anthropicAt, makeService, openaiAt } from '../../support/llm-harness';

let fake: FakeModelServer;
beforeAll(async () => {
  fake = await FakeModelServer.start();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

const ASK_TEXT = {
  system: 'Summarise.',
  messages: [{ role: 'user' as const, content: 'Sales rose 4% in May.' }],
};
const USAGE = { input: 2000, cached: 1500, cacheWrite: 300, output: 120, reasoning: 0 };

describe.each([
  [
    'openai',
    () => openaiAt(fake.openaiBaseUrl, { model: 'gpt-4.1-mini' }),
    { input: 0.4, cached: 0.1, write: 0.4, output: 1.6 },
  ],
  [
    'anthropic',
    () => anthropicAt(fake.anthropicBaseUrl, { model: 'claude-haiku-4-5' }),
    { input: 1, cached: 0.1, write: 1.25, output: 5 },
  ],
])('%s wire', (wire, section, rate) => {
  test('a streamed answer reports the same usage and cost as an unstreamed one, and its pieces join to the text', async () => {
    const { service } = makeService(section());
    const set = service.acquire();
    const text = 'Sales grew four percent in May compared with April.';
    fake.reply({ text, usage: USAGE }, { text, usage: USAGE });
    const plain = await set.text('default', ASK_TEXT, { node: 'answer_synthesizer' });
    const pieces: string[] = [];
    const streamed = await set.streamText('default', ASK_TEXT, (p) => pieces.push(p), {
      node: 'answer_synthesizer',
    });
    expect(fake.requests.map((r) => r.stream)).toEqual([false, true]);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(text);
    expect(streamed.text).toBe(plain.text);
    const strip = (c: CallRecord) => ({ ...c, latency_s: 0 });
    expect(streamed.calls.map(strip)).toEqual(plain.calls.map(strip));
    // Cached reads and cache writes are part of the input and billed at their own rates.
    const expected =
      ((2000 - 1500 - 300) * rate.input + 1500 * rate.cached + 300 * rate.write + 120 * rate.output) / 1e6;
    expect(plain.calls[0]).toMatchObject({
      node: 'answer_synthesizer',
      input_tokens: 2000,
      cached_input_tokens: 1500,
      cache_write_input_tokens: wire === 'anthropic' ? 300 : 0,
      output_tokens: 120,
      total_tokens: 2120,
      usage_reported: true,
      error: null,
    });
    if (wire === 'anthropic') expect(plain.calls[0]?.cost).toBeCloseTo(expected, 8);
    else
      expect(plain.calls[0]?.cost).toBeCloseTo(
        (500 * rate.input + 1500 * rate.cached + 120 * rate.output) / 1e6,
        8,
      );
    service.release(set);
    await service.close();
  });

  test('no usage from the provider: usage_reported false, zero tokens, cost null', async () => {
    const { service } = makeService(section());
    const set = service.acquire();
    fake.reply({ text: 'ok', usage: null }, { text: 'ok', usage: null });
    const plain = await set.text('default', ASK_TEXT);
    const streamed = await set.streamText('default', ASK_TEXT, () => undefined);
    for (const r of [plain, streamed]) {
      expect(r.calls[0]).toMatchObject({
        usage_reported: false,
        input_tokens: 0,
        output_tokens: 0,
        cost: null,
      });
    }
    service.release(set);
    await service.close();
  });
});

test('an unpriced model costs null; config prices apply; dated snapshots and router names find their row', () => {
  const table = new PriceTable({ 'local-llama': { input: 0, output: 0 } });
  const usage = {
    inputTokens: 1_000_000,
    cachedInputTokens: 0,
    cacheWriteInputTokens: 0,
    outputTokens: 1_000_000,
    reasoningTokens: 0,
  };
  expect(table.cost('never-heard-of-it', usage)).toBeNull();
  expect(table.cost('local-llama', usage)).toBe(0);
  expect(table.cost('gpt-4.1-mini', usage)).toBeCloseTo(2.0, 8);
  expect(table.cost('gpt-4.1-mini-2025-04-14', usage)).toBeCloseTo(2.0, 8);
  expect(table.cost('openai/gpt-4.1-mini', usage)).toBeCloseTo(2.0, 8);
  expect(table.cost('claude-sonnet-4-20250514', usage)).toBeCloseTo(18, 8);
});

test('QuestionUsage sums calls per node and in total; an unpriced call makes the total cost null', () => {
  const call = (node: string, input: number, cost: number | null): CallRecord => ({
    node,
    model: 'm',
    input_tokens: input,
    cached_input_tokens: 0,
    cache_write_input_tokens: 0,
    output_tokens: 10,
    reasoning_tokens: 0,
    total_tokens: input + 10,
    latency_s: 0.5,
    cost,
    usage_reported: true,
    error: null,
  });
  const u = questionUsage(
    [call('ast_planner', 100, 0.01), call('ast_planner', 50, 0.02), call('decomposer', 10, 0.001)],
    2,
  );
  expect(u.total).toMatchObject({
    calls: 3,
    input_tokens: 160,
    output_tokens: 30,
    total_tokens: 190,
    latency_s: 1.5,
  });
  expect(u.total.cost).toBeCloseTo(0.031, 8);
  expect(u.nodes.ast_planner).toMatchObject({ calls: 2, input_tokens: 150 });
  expect(u.plan_cache_hits).toBe(2);
  expect(questionUsage([call('a', 1, 0.01), call('b', 1, null)]).total.cost).toBeNull();
});
