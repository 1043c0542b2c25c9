/**
 * The twelve provider behaviours of spec 4.16, one test each, over real HTTP to the fake server
 * with the real `openai` and `@anthropic-ai/sdk` clients.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { ConfigError } from '../../../src/config/config-error';
import { LlmError } from '../../../src/engine/llm/errors';
import { discoverPlugins } from '../../../src/engine/llm/providers/plugin-discovery';
import type {
  ModelClient,
  ProviderPluginV2,
  ResolvedAgent,
} from '../../../src/engine/llm/providers/provider';
import { ProviderRegistry } from '../../../src/engine/llm/providers/registry';
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

/** A plugin (interface v2) whose client talks the OpenAI wire to the fake via the real SDK. */
function echoPlugin(version: number = 2): ProviderPluginV2 {
  return {
    interface_version: version as 2,
    label: 'Echo plugin',
    api_key_env: null,
    requires: [],
    install_hint: 'npm install nl2sql-echo',
    structured_output: 'json_mode',
    create(agent: ResolvedAgent): ModelClient {
      const sdk = new OpenAI({ apiKey: 'plugin', baseURL: agent.baseUrl ?? undefined, maxRetries: 0 });
      return {
        async complete(req) {
          const r = await sdk.chat.completions.create({
            model: agent.model,
            messages: [{ role: 'system', content: req.system }, ...req.messages],
          });
          return { text: r.choices[0]?.message.content ?? '', usage: null, model: r.model };
        },
        async close() {},
      };
    },
  };
}

test('1. built-ins, aliases, plugins of interface v2 (programmatic and discovered), others rejected, unknown names refused', async () => {
  // Aliases map to the canonical built-ins, in the spec's order.
  const registry = new ProviderRegistry();
  expect(
    ['alpha', 'beta', 'alpha_compatible', 'router', 'local_server'].map((n) => registry.canonical(n)),
  ).toEqual(['openai', 'anthropic', 'openai_compatible', 'openrouter', 'ollama']);
  // An unknown name names the valid ones.
  expect(() => registry.canonical('gamma')).toThrow(
    /Unsupported LLM provider 'gamma'; valid providers: openai, anthropic, openai_compatible, openrouter, ollama/,
  );
  const bad = () => makeService({ provider: 'gamma', model: 'm' });
  expect(bad).toThrow(ConfigError);
  expect(bad).toThrow(/llm.provider: Unsupported LLM provider 'gamma'/);

  // Another interface version is rejected when loaded.
  expect(() => registry.register('echo1', echoPlugin(1))).toThrow(
    /interface version 1; this engine loads version 2 only/,
  );

  // Programmatic registration, then a real call through the plugin's own client.
  registry.register('echo', echoPlugin());
  const { service } = makeService(
    { provider: 'echo', model: 'echo-1', base_url: fake.openaiBaseUrl },
    {},
    { registry },
  );
  fake.reply({ text: '{"answer": 42}' });
  const set = service.acquire();
  const { value } = await set.structured('default', ASK);
  expect(value).toEqual({ answer: 42 });
  expect(fake.requests[0]?.body.model).toBe('echo-1');
  // json_mode (the plugin's declared method) put the schema in the prompt.
  expect(fake.requests[0]?.body.messages[0].content).toContain('"answer"');
  expect(service.providers().find((p) => p.name === 'echo')).toEqual({
    name: 'echo',
    label: 'Echo plugin',
    key_variable: null,
    key_present: false,
  });
  service.release(set);
  await service.close();

  // Discovery from an installed package's package.json; a v3 plugin there is rejected, not fatal.
  const root = mkdtempSync(join(tmpdir(), 'nl2sql-plugins-'));
  try {
    const pkg = join(root, 'node_modules', '@acme', 'nl2sql-providers');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(
      join(pkg, 'package.json'),
      JSON.stringify({
        name: '@acme/nl2sql-providers',
        version: '1.0.0',
        nl2sql: { providers: { acme: './acme.js', future: './future.js' } },
      }),
    );
    const common = `label: 'Acme', api_key_env: 'ACME_KEY', requires: [], install_hint: 'npm i acme', structured_output: 'tool_calling', create() { return { complete: async () => ({ text: '{}', usage: null, model: 'x' }), close: async () => {} }; }`;
    writeFileSync(join(pkg, 'acme.js'), `module.exports = { interface_version: 2, ${common} };`);
    writeFileSync(
      join(pkg, 'future.js'),
      `module.exports = { default: { interface_version: 3, ${common} } };`,
    );
    const reg = new ProviderRegistry();
    const found = discoverPlugins(reg, root);
    expect(found.registered).toEqual([{ name: 'acme', package: '@acme/nl2sql-providers' }]);
    expect(found.rejected).toHaveLength(1);
    expect(found.rejected[0]?.reason).toMatch(/interface version 3/);
    expect(reg.canonical('acme')).toBe('acme');
    expect(() => reg.canonical('future')).toThrow(/Unsupported LLM provider/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('2. alpha-wire providers speak chat completions, beta speaks messages; alpha uses the default endpoint; alpha_compatible needs base_url; base_url overrides a preset', async () => {
  const seen: string[] = [];
  const env = {
    OPENAI_API_KEY: 'sk-env-openai-0123456789',
    OPENROUTER_API_KEY: 'sk-or-0123456789',
    ANTHROPIC_API_KEY: 'sk-ant-0123456789',
  };
  const cases: [string, Record<string, unknown>][] = [
    ['alpha_compatible', { base_url: fake.openaiBaseUrl }],
    ['router', { base_url: fake.openaiBaseUrl }],
    ['local_server', { base_url: fake.openaiBaseUrl }],
    ['beta', { base_url: fake.anthropicBaseUrl }],
  ];
  for (const [provider, extra] of cases) {
    fake.reset();
    fake.reply({ json: { answer: 1 } });
    const { service } = makeService({ provider, model: 'm', max_retries: 0, ...extra }, env);
    const set = service.acquire();
    await set.structured('default', ASK);
    seen.push(`${provider}:${fake.requests[0]?.path}`);
    service.release(set);
    await service.close();
  }
  expect(seen).toEqual([
    'alpha_compatible:/v1/chat/completions',
    'router:/v1/chat/completions',
    'local_server:/v1/chat/completions',
    'beta:/v1/messages',
  ]);

  // alpha with no base_url: the SDK's own default endpoint, which the SDK lets OPENAI_BASE_URL move.
  const saved = process.env.OPENAI_BASE_URL;
  process.env.OPENAI_BASE_URL = fake.openaiBaseUrl;
  try {
    fake.reset();
    fake.reply({ json: { answer: 1 } });
    const { service } = makeService({ provider: 'alpha', model: 'gpt-4.1-mini', max_retries: 0 }, env);
    const set = service.acquire();
    await set.structured('default', ASK);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer sk-env-openai-0123456789');
    service.release(set);
    await service.close();
  } finally {
    if (saved === undefined) delete process.env.OPENAI_BASE_URL;
    else process.env.OPENAI_BASE_URL = saved;
  }

  expect(() => makeService({ provider: 'alpha_compatible', model: 'm' })).toThrow(
    /llm.base_url: provider 'alpha_compatible' needs base_url/,
  );
  // Without an override, router and local_server point at their preset endpoints.
  const presets = makeService(
    { provider: 'router', model: 'm', agents: { answer_synthesizer: { provider: 'local_server' } } },
    env,
  ).service;
  const endpoints = ['default', 'answer_synthesizer'].map((a) => presets.current().client(a).agent.baseUrl);
  expect(endpoints).toEqual(['https://openrouter.ai/api/v1', 'http://127.0.0.1:11434/v1']);
  await presets.close();
});

test('3. beta wire: optional SDK named when missing; cache breakpoint on the last system block; max_tokens 16000 unless set; nested tool arguments unwrapped', async () => {
  // Without the package: the engine builds, getting the agent's client names what to install.
  const registry = new ProviderRegistry({
    load: (id) => {
      if (id === '@anthropic-ai/sdk')
        throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- every other package loads as usual
      return require(id) as unknown;
    },
  });
  const missing = makeService(anthropicAt(fake.anthropicBaseUrl), {}, { registry }).service;
  expect(() => missing.current().client('default')).toThrow(/not installed: npm install @anthropic-ai\/sdk/);
  expect(missing.providers().map((p) => p.name)).not.toContain('anthropic');
  await missing.close();

  const { service } = makeService({
    ...anthropicAt(fake.anthropicBaseUrl),
    agents: { ast_planner: { max_tokens: 512 } },
  });
  const set = service.acquire();
  // The model nests its arguments under `plan`, a key the schema does not declare: peeled off.
  const nestedSchema = {
    ...ASK,
    schema: { type: 'object', properties: { value: { type: 'integer' } }, required: ['value'] },
  };
  fake.reply({ json: { plan: { value: 42 } } }, { json: { value: 1 } });
  const first = await set.structured('default', nestedSchema);
  expect(first.value).toEqual({ value: 42 });
  expect(first.calls).toHaveLength(1);
  const req = fake.requests[0]?.body;
  expect(req.system.at(-1)).toEqual({ type: 'text', text: ASK.system, cache_control: { type: 'ephemeral' } });
  expect(req.max_tokens).toBe(16000);
  expect(req.seed).toBeUndefined();
  await set.structured('ast_planner', nestedSchema);
  expect(fake.requests[1]?.body.max_tokens).toBe(512);
  service.release(set);
  await service.close();
});

test('4. alpha, beta and router need a key; alpha_compatible and local_server get a placeholder and never read the alpha key variable', async () => {
  const { service } = makeService({
    provider: 'alpha',
    model: 'gpt-4.1-mini',
    agents: {
      decomposer: { provider: 'beta', model: 'claude-haiku-4-5' },
      datasource_resolver: { provider: 'router', model: 'x' },
      verified_resolver: { provider: 'alpha_compatible', base_url: fake.openaiBaseUrl, max_retries: 0 },
      answer_synthesizer: { provider: 'local_server', base_url: fake.openaiBaseUrl, max_retries: 0 },
    },
  });
  expect(service.check().map((p) => `${p.agent}:${p.code}`)).toEqual([
    'default:LLM_KEY_MISSING',
    'decomposer:LLM_KEY_MISSING',
    'datasource_resolver:LLM_KEY_MISSING',
  ]);
  await service.close();

  // With OPENAI_API_KEY set, the compatible agent still sends only its placeholder.
  const withKey = makeService(
    { provider: 'alpha_compatible', model: 'm', base_url: fake.openaiBaseUrl, max_retries: 0 },
    { OPENAI_API_KEY: 'sk-must-not-leak-0123456789' },
  ).service;
  fake.reply({ json: { answer: 3 } });
  const set = withKey.acquire();
  await set.structured('default', ASK);
  expect(fake.requests[0]?.headers.authorization).toBe('Bearer not-needed');
  withKey.release(set);
  await withKey.close();
});

test('5. max_tokens, timeout_s, max_retries and headers reach the client only when set', async () => {
  const { service } = makeService(
    {
      ...openaiAt(fake.openaiBaseUrl),
      max_retries: null,
      headers: { 'X-Team': '${env:TEAM_HEADER}' },
      agents: {
        ast_planner: { max_tokens: 300, max_retries: 0, timeout_s: 0.3 },
      },
    },
    { TEAM_HEADER: 'analytics-team-42' },
  );
  const set = service.acquire();

  // Unset: no max tokens in the body; the SDK's own retry default (2 retries = 3 requests) holds.
  fake.reply({ fail: 'server' }, { fail: 'server' }, { json: { answer: 5 } });
  const { value } = await set.structured('default', ASK);
  expect(value).toEqual({ answer: 5 });
  expect(fake.requests).toHaveLength(3);
  expect(fake.requests[0]?.body).not.toHaveProperty('max_completion_tokens');
  expect(fake.requests[0]?.body).not.toHaveProperty('max_tokens');
  expect(fake.requests[0]?.headers['x-team']).toBe('analytics-team-42');

  // Set: max tokens sent, no retry, and a hanging server ends in PROVIDER_TIMEOUT after ~0.3 s.
  fake.reset();
  fake.reply({ json: { answer: 6 } });
  await set.structured('ast_planner', ASK);
  expect(fake.requests[0]?.body.max_completion_tokens).toBe(300);
  fake.reset();
  fake.reply({ fail: 'server' });
  await expect(set.structured('ast_planner', ASK)).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
  expect(fake.requests).toHaveLength(1);
  fake.reset();
  fake.reply({ hang: true });
  await expect(set.structured('ast_planner', ASK)).rejects.toMatchObject({
    code: 'PROVIDER_TIMEOUT',
    provider: 'openai',
  });
  service.release(set);
  await service.close();
});

test('6. structured output per method, the schema in the prompt for json_mode, parse_retries + 1 calls then MODEL_OUTPUT_INVALID, streaming only the first answer', async () => {
  const { service } = makeService({
    ...openaiAt(fake.openaiBaseUrl),
    agents: {
      datasource_resolver: { structured_output: 'tool_calling' },
      decomposer: { structured_output: 'json_schema' },
      verified_resolver: { structured_output: 'json_mode' },
      ast_planner: { structured_output: 'json_schema', parse_retries: 2 },
    },
  });
  const set = service.acquire();
  fake.reply({ json: { answer: 1 } }, { json: { answer: 2 } }, { json: { answer: 3 } });
  expect((await set.structured('datasource_resolver', ASK)).value).toEqual({ answer: 1 });
  expect((await set.structured('decomposer', ASK)).value).toEqual({ answer: 2 });
  expect((await set.structured('verified_resolver', ASK)).value).toEqual({ answer: 3 });
  const [tools, schema, mode] = fake.requests.map((r) => r.body);
  expect(tools.tools[0].function).toMatchObject({ name: 'answer', parameters: ASK.schema });
  expect(tools.tool_choice).toEqual({ type: 'function', function: { name: 'answer' } });
  expect(schema.response_format).toMatchObject({
    type: 'json_schema',
    json_schema: { name: 'answer', schema: ASK.schema },
  });
  expect(mode.response_format).toEqual({ type: 'json_object' });
  expect(mode.messages[0].content).toContain(JSON.stringify(ASK.schema));
  expect(schema.messages[0].content).not.toContain(JSON.stringify(ASK.schema));

  // parse_retries 2: exactly 3 calls, each failure sent back with its validation errors.
  fake.reset();
  fake.reply(
    { text: 'forty-two' },
    { json: { answer: 'x' } },
    { json: { wrong: 1 } },
    { json: { answer: 9 } },
  );
  const failure = await set.structured('ast_planner', ASK).catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(LlmError);
  expect(failure).toMatchObject({ code: 'MODEL_OUTPUT_INVALID' });
  expect((failure as LlmError).calls).toHaveLength(3);
  expect(fake.requests).toHaveLength(3);
  expect(fake.pending).toBe(1);
  const lastTurn = fake.requests[2]?.body.messages.at(-1).content as string;
  expect(lastTurn).toMatch(/does not match the answer schema: .*answer/);
  // Every error of the last answer, {wrong: 1}, is reported, not only the first one found.
  expect((failure as LlmError).message).toContain('missing property "answer"');
  expect((failure as LlmError).message).toContain('unknown property "wrong"');
  expect(fake.requests[1]?.body.messages.at(-1).content).toMatch(/not valid JSON/);

  // Streaming: only the first attempt streams; the correction is an ordinary call.
  fake.reset();
  fake.reply({ json: { answer: 'bad' } }, { json: { answer: 7 } });
  const deltas: string[] = [];
  const streamed = await set.structured('datasource_resolver', ASK, { onDelta: (d) => deltas.push(d) });
  expect(streamed.value).toEqual({ answer: 7 });
  expect(fake.requests.map((r) => r.stream)).toEqual([true, false]);
  expect(deltas.join('')).toBe('{"answer":"bad"}');
  service.release(set);
  await service.close();
});

test('7. a missing key does not stop the build; the check reports it; using the agent names agent, provider and variable', async () => {
  const { service } = makeService({
    provider: 'openai',
    model: 'gpt-4.1-mini',
    agents: { ast_planner: { model: 'gpt-4.1' } },
  });
  expect(service.list()).toHaveProperty('ast_planner');
  expect(service.check()).toEqual([
    expect.objectContaining({ agent: 'default', provider: 'openai', code: 'LLM_KEY_MISSING' }),
    expect.objectContaining({ agent: 'ast_planner', provider: 'openai', code: 'LLM_KEY_MISSING' }),
  ]);
  const set = service.acquire();
  await expect(set.structured('ast_planner', ASK)).rejects.toThrow(
    /agent 'ast_planner' uses provider 'openai', which needs an API key: set the environment variable OPENAI_API_KEY/,
  );
  expect(fake.requests).toHaveLength(0);
  service.release(set);
  // On replace the same section is refused (422) since every key must resolve.
  expect(() => service.replace({ provider: 'openai', model: 'gpt-4.1' })).toThrow(
    /llm.api_key: .*OPENAI_API_KEY/,
  );
  await service.close();
});

test('8. a 400 rejecting temperature names the model and agent and says to set temperature: null', async () => {
  const { service } = makeService({
    ...openaiAt(fake.openaiBaseUrl, { model: 'o3' }),
    agents: { ast_planner: {} },
  });
  fake.reply({ fail: 'temperature' });
  const set = service.acquire();
  const err = (await set.structured('ast_planner', ASK).catch((e: unknown) => e)) as LlmError;
  expect(err.code).toBe('PROVIDER_TEMPERATURE_REJECTED');
  expect(err.message).toMatch(
    /model 'o3' of agent 'ast_planner' does not accept a temperature.*set 'temperature: null'/,
  );
  expect(err.provider).toBe('openai');
  expect(err.providerResponse).toMatchObject({ status: 400 });
  service.release(set);
  await service.close();
});

test('9. seed 42 on every alpha-wire request, none on beta; temperature 0.0 by default (none by default on beta, whose current API refuses it), the configured one, or none when null', async () => {
  const { service } = makeService({
    ...openaiAt(fake.openaiBaseUrl),
    agents: {
      datasource_resolver: { temperature: 0.7 },
      decomposer: { temperature: null },
      verified_resolver: anthropicAt(fake.anthropicBaseUrl),
      ast_planner: { ...anthropicAt(fake.anthropicBaseUrl), temperature: null },
      answer_synthesizer: { ...anthropicAt(fake.anthropicBaseUrl), temperature: 0.5 },
    },
  });
  const set = service.acquire();
  for (const agent of [
    'default',
    'datasource_resolver',
    'decomposer',
    'verified_resolver',
    'ast_planner',
    'answer_synthesizer',
  ]) {
    fake.reply({ json: { answer: 1 } });
    await set.structured(agent, ASK);
  }
  const bodies = fake.requests.map((r) => r.body);
  expect(bodies.map((b) => b.seed)).toEqual([42, 42, 42, undefined, undefined, undefined]);
  expect(bodies.map((b) => b.temperature)).toEqual([0, 0.7, undefined, undefined, undefined, 0.5]);
  expect('temperature' in bodies[2]).toBe(false);
  // Anthropic: no sampling parameter of any kind unless one is configured.
  for (const body of bodies.slice(3, 5)) {
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('top_p');
    expect(body).not.toHaveProperty('top_k');
  }
  service.release(set);
  await service.close();
});

test('10. one immutable set built without a model call; equal settings share a client; the LRU closes evicted clients once unheld; close closes all', async () => {
  const [a0, a1, a2] = ['datasource_resolver', 'decomposer', 'verified_resolver'] as const;
  const agents = Object.fromEntries([a0, a1, a2].map((name) => [name, { model: 'gpt-4.1-mini' }]));
  const { service } = makeService(
    { ...openaiAt(fake.openaiBaseUrl), agents: { ...agents, ast_planner: { model: 'gpt-4.1' } } },
    {},
    { cacheSize: 2 },
  );
  expect(fake.requests).toHaveLength(0);
  const first = service.acquire();
  const shared = first.client(a0).client;
  expect(first.client(a1).client).toBe(shared);
  expect(first.client('default').client).toBe(shared);
  expect(first.clients()).toHaveLength(2);

  // Two replaces with new models overflow the LRU of 2: the first set's clients are evicted but
  // stay open while a run holds that set.
  service.replace({ ...openaiAt(fake.openaiBaseUrl), model: 'gpt-4o' });
  service.replace({ ...openaiAt(fake.openaiBaseUrl), model: 'gpt-4o-mini' });
  const cache = service.clientCache;
  expect(cache.isOpen(shared)).toBe(true);
  fake.reply({ json: { answer: 8 } });
  expect((await first.structured(a2, ASK)).value).toEqual({ answer: 8 });
  expect(fake.requests[0]?.body.model).toBe('gpt-4.1-mini');
  service.release(first);
  expect(cache.isOpen(shared)).toBe(false);

  // An equal replace reuses the live client.
  const live = service.current().client('default').client;
  service.replace({ ...openaiAt(fake.openaiBaseUrl), model: 'gpt-4o-mini' });
  expect(service.current().client('default').client).toBe(live);
  await service.close();
  expect(cache.isOpen(live)).toBe(false);
});

test('11. a local model answers with the method its agent names; the local default is json_schema, and fenced JSON is accepted', async () => {
  const { service } = makeService({
    provider: 'local_server',
    model: 'llama3.1:8b',
    base_url: fake.openaiBaseUrl,
    max_retries: 0,
    agents: { ast_planner: { model: 'qwen2.5:0.5b', structured_output: 'json_mode' } },
  });
  const set = service.acquire();
  fake.reply({ json: { answer: 4 } }, { text: 'Sure! Here it is:\n```json\n{"answer": 5}\n```' });
  expect((await set.structured('default', ASK)).value).toEqual({ answer: 4 });
  expect((await set.structured('ast_planner', ASK)).value).toEqual({ answer: 5 });
  expect(fake.requests[0]?.body.response_format.type).toBe('json_schema');
  expect(fake.requests[1]?.body.response_format).toEqual({ type: 'json_object' });
  expect(fake.requests[1]?.body.tools).toBeUndefined();
  service.release(set);
  await service.close();
});

test('12. embeddings are not routed through the LLM set: it only ever calls chat endpoints and offers no embedding call', async () => {
  const { service } = makeService(openaiAt(fake.openaiBaseUrl));
  const set = service.acquire();
  fake.reply({ json: { answer: 1 } }, { text: 'hello' });
  await set.structured('default', ASK);
  await set.text('default', { system: 's', messages: [{ role: 'user', content: 'hi' }] });
  expect(fake.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
  expect(Object.getOwnPropertyNames(Object.getPrototypeOf(set)).filter((n) => /embed/i.test(n))).toEqual([]);
  // The llm section has no embeddings key: it belongs to the engine's own `embeddings` section.
  expect(() => makeService({ ...openaiAt(fake.openaiBaseUrl), embeddings: { provider: 'local' } })).toThrow(
    /unknown key 'embeddings'/,
  );
  service.release(set);
  await service.close();
});
