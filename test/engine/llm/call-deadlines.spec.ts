/**
 * A model call ends within its budget whatever the provider does (issue 19, items 3-5), on every
 * wire (the real SDKs, and Ollama's native wire) against the fake server: a streamed answer that stalls ends in
 * PROVIDER_TIMEOUT, one cut short (closed without its end mark) is PROVIDER_UNAVAILABLE rather than
 * a truncated success, and retries never outlast timeout_s.
 */
import { SecretManager } from '../../../src/config/secrets';
import { renderFailure } from '../../support/fake-model/replies';
import { LlmService } from '../../../src/engine/llm/llm-service';
import { FakeModelServer } from '../../support/fake-model';

jest.setTimeout(20_000);

let fake: FakeModelServer;
beforeAll(async () => {
  fake = await FakeModelServer.start();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const WIRES = [
  ['openai', () => ({ provider: 'openai_compatible', base_url: fake.openaiBaseUrl })],
  ['anthropic', () => ({ provider: 'anthropic', base_url: fake.anthropicBaseUrl })],
  ['ollama', () => ({ provider: 'ollama', base_url: fake.ollamaBaseUrl })],
] as const;

function service(wire: () => Record<string, unknown>, extra: Record<string, unknown>): LlmService {
  return new LlmService({
    llm: { model: 'fake-model', api_key: 'k', temperature: null, ...wire(), ...extra },
    secrets: new SecretManager({}),
  });
}

const REQUEST = { system: 'Answer briefly.', messages: [{ role: 'user' as const, content: 'hello' }] };

describe.each(WIRES)('on the %s wire', (name, wire) => {
  it('ends a streamed answer that stalls with PROVIDER_TIMEOUT within timeout_s', async () => {
    const llm = service(wire, { timeout_s: 1, max_retries: 0 });
    fake.reply({ text: 'The answer is forty-two, as everyone knows.', streamFault: 'stall' });
    const pieces: string[] = [];
    const set = llm.acquire();
    try {
      await expect(set.streamText('default', REQUEST, (p) => pieces.push(p))).rejects.toMatchObject({
        code: 'PROVIDER_TIMEOUT',
      });
      // It did stream before stalling: the deadline is the stream's own, not the SDK's header timeout.
      expect(fake.requests).toHaveLength(1);
    } finally {
      llm.release(set);
      await llm.close();
    }
  });

  it('reports a streamed answer cut short as PROVIDER_UNAVAILABLE, not as a shorter answer', async () => {
    const llm = service(wire, { max_retries: 0 });
    fake.reply({ text: 'The answer is forty-two, as everyone knows.', streamFault: 'cut' });
    const set = llm.acquire();
    try {
      await expect(set.streamText('default', REQUEST, () => undefined)).rejects.toMatchObject({
        code: 'PROVIDER_UNAVAILABLE',
        message: expect.stringMatching(/before it was complete/),
      });
    } finally {
      llm.release(set);
      await llm.close();
    }
  });

  it('still takes a whole streamed answer', async () => {
    const llm = service(wire, { timeout_s: 5, max_retries: 0 });
    fake.reply({ text: 'The answer is forty-two.' });
    const pieces: string[] = [];
    const set = llm.acquire();
    try {
      const result = await set.streamText('default', REQUEST, (p) => pieces.push(p));
      expect(result.text).toBe('The answer is forty-two.');
      expect(pieces.join('')).toBe('The answer is forty-two.');
    } finally {
      llm.release(set);
      await llm.close();
    }
  });

  it(`keeps retries within timeout_s: a 429 asking for 4 s with 2 retries and timeout_s 2 (${name})`, async () => {
    const llm = service(wire, { timeout_s: 2, max_retries: 2 });
    const limited = renderFailure(name, 'rate_limit');
    fake.reply(
      {
        status: limited.status,
        body: limited.body,
        headers: { 'retry-after-ms': '4000', 'retry-after': '4' },
      },
      { text: 'too late' },
    );
    const set = llm.acquire();
    const started = Date.now();
    try {
      await expect(set.text('default', REQUEST)).rejects.toMatchObject({ code: 'PROVIDER_TIMEOUT' });
      // The retry the provider asked for would come after the budget: it is never sent.
      expect(fake.requests).toHaveLength(1);
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      llm.release(set);
      await llm.close();
    }
  });
});
