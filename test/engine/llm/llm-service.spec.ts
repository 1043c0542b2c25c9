/**
 * The engine LLM operations: list, get, providers, prices, replace (LLMChange, log line, audit
 * record, atomicity), the run-side acquire/release, the cost-cap price rule, the key-free default.
 */
import { ConfigError } from '../../../src/config/config-error';
import { NotFoundError } from '../../../src/engine/errors';
import { DEFAULT_LLM_SECTION } from '../../../src/engine/llm/section';
import { FakeModelServer } from '../../support/fake-model';
import { anthropicAt, ASK, makeService, openaiAt } from '../../support/llm-harness';

let fake: FakeModelServer;
beforeAll(async () => {
  fake = await FakeModelServer.start();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

test('list shows agents default first with inherited flags and no key; get names the valid agents for an unknown one', async () => {
  const { service } = makeService({
    ...openaiAt(fake.openaiBaseUrl),
    agents: { decomposer: {}, ast_planner: { model: 'gpt-4.1', temperature: null } },
  });
  const list = service.list();
  expect(Object.keys(list)).toEqual(['default', 'decomposer', 'ast_planner']);
  expect(list).toEqual({
    default: { provider: 'openai', model: 'gpt-4.1-mini', temperature: 0, inherited: false },
    decomposer: { provider: 'openai', model: 'gpt-4.1-mini', temperature: 0, inherited: true },
    ast_planner: { provider: 'openai', model: 'gpt-4.1', temperature: null, inherited: false },
  });
  expect(JSON.stringify(list)).not.toContain('sk-');
  expect(service.get('ast_planner').model).toBe('gpt-4.1');
  expect(() => service.get('nope')).toThrow(NotFoundError);
  expect(() => service.get('nope')).toThrow(
    "unknown agent 'nope'; valid agents: default, decomposer, ast_planner",
  );
  await service.close();
});

test('providers lists installed built-ins with their key variables and whether the key is present', async () => {
  const { service } = makeService(openaiAt(fake.openaiBaseUrl), { OPENAI_API_KEY: 'sk-present-0123456789' });
  expect(service.providers()).toEqual([
    { name: 'openai', label: 'OpenAI', key_variable: 'OPENAI_API_KEY', key_present: true },
    { name: 'anthropic', label: 'Anthropic', key_variable: 'ANTHROPIC_API_KEY', key_present: false },
    { name: 'openai_compatible', label: 'OpenAI-compatible server', key_variable: null, key_present: false },
    { name: 'openrouter', label: 'OpenRouter', key_variable: 'OPENROUTER_API_KEY', key_present: false },
    { name: 'ollama', label: 'Local server (ollama)', key_variable: null, key_present: false },
  ]);
  await service.close();
});

test('prices: built-in rows with citation, config rows with source config; max_cost_usd needs every model priced', async () => {
  const { service } = makeService(
    { ...openaiAt(fake.openaiBaseUrl), model: 'my-model', prices: { 'my-model': { input: 1, output: 2 } } },
    {},
    { maxCostUsd: 0.5 },
  );
  const prices = service.prices();
  expect(prices.checked_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(prices.models['my-model']).toEqual({
    input: 1,
    output: 2,
    cached_input: null,
    cache_write: null,
    verified: false,
    source: 'config',
    citation: null,
  });
  expect(prices.models['gpt-4.1-mini']).toMatchObject({
    source: 'table',
    citation: expect.stringMatching(/^https:\/\//),
  });
  // A replace to an unpriced model is refused with the path of the key, and changes nothing.
  expect(() => service.replace({ ...openaiAt(fake.openaiBaseUrl), model: 'unpriced-x' })).toThrow(
    /llm.model: settings.pipeline.max_cost_usd is set but model 'unpriced-x' has no price/,
  );
  expect(service.get('default').model).toBe('my-model');
  // And at start-up.
  expect(() =>
    makeService(openaiAt(fake.openaiBaseUrl, { model: 'unpriced-y' }), {}, { maxCostUsd: 1 }),
  ).toThrow(ConfigError);
  await service.close();
});

test('replace returns LLMChange, logs one INFO line on nl2sql.llm and audits llm.changed, all without a key', async () => {
  const { service, logger, audit } = makeService(
    { ...openaiAt(fake.openaiBaseUrl), agents: { ast_planner: {} } },
    { ANT: 'sk-ant-secret-in-env-987654321' },
  );
  const change = service.replace(
    {
      ...openaiAt(fake.openaiBaseUrl),
      agents: { ast_planner: { ...anthropicAt(fake.anthropicBaseUrl), api_key: '${env:ANT}' } },
    },
    { user_id: 'u1', roles: ['admin'] },
    'api',
  );
  expect(change).toEqual({
    by: { via: 'api', user_id: 'u1', roles: ['admin'] },
    changes: { ast_planner: { old: 'openai/gpt-4.1-mini', new: 'anthropic/claude-haiku-4-5' } },
  });
  expect(logger.lines.filter((l) => l.level === 'info')).toHaveLength(1);
  expect(logger.lines[0]?.message).toBe(
    'LLM replaced via api: ast_planner: openai/gpt-4.1-mini -> anthropic/claude-haiku-4-5',
  );
  expect(audit.records).toEqual([
    { record: 'llm.changed', data: { via: 'api', user_id: 'u1', roles: ['admin'], changes: change.changes } },
  ]);
  const written = JSON.stringify([change, logger.lines, audit.records]);
  expect(written).not.toContain('sk-ant-secret-in-env-987654321');
  expect(written).not.toContain('sk-test-openai-0123456789');
  expect(service.get('ast_planner').provider).toBe('anthropic');
  await service.close();
});

test('a failing replace changes nothing: invalid key names, unknown provider, unresolved key', async () => {
  const { service, logger, audit } = makeService(openaiAt(fake.openaiBaseUrl));
  const before = service.current();
  const attempts: [unknown, RegExp][] = [
    [
      { ...openaiAt(fake.openaiBaseUrl), temprature: 0.2 },
      /llm.temprature: unknown key 'temprature' \(did you mean 'temperature'\?\)/,
    ],
    [{ ...openaiAt(fake.openaiBaseUrl), provider: 'delta' }, /Unsupported LLM provider 'delta'/],
    [
      { ...openaiAt(fake.openaiBaseUrl), agents: { decomposer: { api_key: '${env:NOT_SET_ANYWHERE}' } } },
      /llm.agents.decomposer.api_key: .*NOT_SET_ANYWHERE/,
    ],
    [
      { ...openaiAt(fake.openaiBaseUrl), model: '${env:HOME}' },
      /llm.model: a secret reference is only allowed in a secret field/,
    ],
  ];
  for (const [section, message] of attempts) {
    expect(() => service.replace(section, null, 'api')).toThrow(message);
    expect(service.current()).toBe(before);
  }
  expect(logger.lines).toHaveLength(0);
  expect(audit.records).toHaveLength(0);
  expect(service.clientCache.size).toBe(1);
  await service.close();
});

test('a run that acquired the set before a replace finishes on the old set; the next run uses the new one', async () => {
  const { service } = makeService(openaiAt(fake.openaiBaseUrl, { model: 'gpt-4.1-mini' }));
  const run = service.acquire();
  fake.reply({ json: { answer: 1 }, delayMs: 150 }, { json: { answer: 2 } }, { json: { answer: 3 } });
  const inFlight = run.structured('default', ASK);
  // The replace comes while the first call is at the server (waited for, not slept for).
  while (!fake.requests.length) await new Promise((r) => setImmediate(r));
  service.replace(openaiAt(fake.openaiBaseUrl, { model: 'gpt-4.1' }));
  expect((await inFlight).value).toEqual({ answer: 1 });
  // The same run's next call still goes to the old model.
  await run.structured('default', ASK);
  service.release(run);
  const next = service.acquire();
  await next.structured('default', ASK);
  service.release(next);
  expect(fake.requests.map((r) => r.body.model)).toEqual(['gpt-4.1-mini', 'gpt-4.1-mini', 'gpt-4.1']);
  await service.close();
});

test('the default section (local server, no key) builds with no network and no secret, and fails only when asked', async () => {
  const { service } = makeService(null);
  expect(service.list()).toEqual({
    default: { provider: 'ollama', model: DEFAULT_LLM_SECTION.model, temperature: 0, inherited: false },
  });
  expect(service.check()).toEqual([]);
  await service.close();
});
