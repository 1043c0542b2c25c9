/**
 * Every provider failure becomes a typed PROVIDER_* error with `provider` and `provider_response`
 * set, on both wires, with keys redacted from the message and the response.
 */
import { LlmError } from '../../../src/engine/llm/errors';
import { FakeModelServer, type FakeFailure } from '../../support/fake-model';
import { anthropicAt, ASK, makeService, openaiAt } from '../../support/llm-harness';

let fake: FakeModelServer;
beforeAll(async () => {
  fake = await FakeModelServer.start();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

const CASES: [FakeFailure, string][] = [
  ['auth', 'PROVIDER_AUTH_FAILED'],
  ['permission', 'PROVIDER_PERMISSION_DENIED'],
  ['not_found', 'PROVIDER_MODEL_NOT_FOUND'],
  ['rate_limit', 'PROVIDER_RATE_LIMITED'],
  ['quota', 'PROVIDER_QUOTA_EXCEEDED'],
  ['server', 'PROVIDER_UNAVAILABLE'],
  ['overloaded', 'PROVIDER_UNAVAILABLE'],
  ['context', 'PROVIDER_CONTEXT_TOO_LONG'],
  ['bad_request', 'PROVIDER_BAD_REQUEST'],
];

describe.each([
  ['openai', () => openaiAt(fake.openaiBaseUrl)],
  ['anthropic', () => anthropicAt(fake.anthropicBaseUrl)],
])('%s wire', (provider, section) => {
  test.each(CASES)('a %s failure is %s with provider and provider_response', async (failure, code) => {
    const { service } = makeService(section());
    fake.reply({ fail: failure });
    const set = service.acquire();
    const err = (await set
      .structured('default', ASK, { node: 'ast_planner' })
      .catch((e: unknown) => e)) as LlmError;
    expect(err).toBeInstanceOf(LlmError);
    expect(err.code).toBe(code);
    expect(err.provider).toBe(provider);
    expect(err.providerResponse).toMatchObject({ status: expect.any(Number) });
    expect(err.calls).toEqual([
      expect.objectContaining({ node: 'ast_planner', error: code, usage_reported: false, cost: null }),
    ]);
    const entry = err.toErrorEntry('ast_planner');
    expect(entry).toMatchObject({ node: 'ast_planner', error_code: code, severity: 'ERROR', provider });
    service.release(set);
    await service.close();
  });

  test('a refusal is PROVIDER_CONTENT_REFUSED, streamed or not', async () => {
    const { service } = makeService(section());
    fake.reply({ refusal: 'I cannot help with that.' }, { refusal: 'I cannot help with that.' });
    const set = service.acquire();
    await expect(
      set.text('default', { system: 's', messages: [{ role: 'user', content: 'q' }] }),
    ).rejects.toMatchObject({
      code: 'PROVIDER_CONTENT_REFUSED',
      provider,
    });
    await expect(
      set.streamText('default', { system: 's', messages: [{ role: 'user', content: 'q' }] }, () => undefined),
    ).rejects.toMatchObject({
      code: 'PROVIDER_CONTENT_REFUSED',
    });
    service.release(set);
    await service.close();
  });

  test('keys are redacted from the message and provider_response (echoed by the provider or our own)', async () => {
    const ownKey = provider === 'openai' ? 'sk-test-openai-0123456789' : 'sk-ant-test-0123456789';
    const { service } = makeService(section());
    fake.reply({
      fail: 'auth',
      message: `Incorrect API key provided: ${ownKey}. Also seen: sk-proj-abcdefghijklmnop1234`,
    });
    const set = service.acquire();
    const err = (await set.structured('default', ASK).catch((e: unknown) => e)) as LlmError;
    expect(err.code).toBe('PROVIDER_AUTH_FAILED');
    const everything = `${err.message} ${JSON.stringify(err.providerResponse)} ${JSON.stringify(err.toErrorEntry('n'))}`;
    expect(everything).not.toContain(ownKey);
    expect(everything).not.toContain('sk-proj-abcdefghijklmnop1234');
    expect(everything).toContain('***');
    service.release(set);
    await service.close();
  });
});

test('an unreachable server is PROVIDER_UNAVAILABLE naming the endpoint', async () => {
  const closed = await FakeModelServer.start();
  const url = closed.openaiBaseUrl;
  await closed.close();
  const { service } = makeService({
    provider: 'local_server',
    model: 'llama3.1:8b',
    base_url: url,
    max_retries: 0,
  });
  const set = service.acquire();
  const err = (await set.structured('default', ASK).catch((e: unknown) => e)) as LlmError;
  expect(err.code).toBe('PROVIDER_UNAVAILABLE');
  expect(err.provider).toBe('ollama');
  expect(err.message).toContain(url);
  service.release(set);
  await service.close();
});
