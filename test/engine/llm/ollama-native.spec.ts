/**
 * The `ollama` preset on Ollama's native chat API (issue 25, item 4), over real HTTP against the
 * fake server's `/api/chat`: the JSON schema in `format`, `options.num_ctx` sized from the prompt,
 * `keep_alive`, seed and temperature in `options`; structured steps unstreamed, the answer step as
 * streamed NDJSON; usage from `prompt_eval_count` / `eval_count`; every failure a PROVIDER_* code;
 * a cancelled call closes its request; the wire each provider word speaks by default.
 */
import { createServer } from 'node:http';
import { ConfigError } from '../../../src/config/config-error';
import { LlmError } from '../../../src/engine/llm/errors';
import { NUM_CTX_FLOOR } from '../../../src/engine/llm/providers/ollama/context-size';
import { FakeModelServer, type FakeFailure } from '../../support/fake-model';
import { ASK, makeService } from '../../support/llm-harness';

jest.setTimeout(20_000);

let fake: FakeModelServer;
beforeAll(async () => {
  fake = await FakeModelServer.start();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

/** An `ollama` agent at the fake's root; no retries unless a test asks for them. */
function ollamaAt(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    provider: 'ollama',
    model: 'qwen2.5-coder:3b',
    base_url: fake.ollamaBaseUrl,
    max_retries: 0,
    ...extra,
  };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}

describe('a structured step', () => {
  it('posts the schema in format, a sized num_ctx, keep_alive, seed and temperature, unstreamed, and reads the usage', async () => {
    const { service } = makeService(ollamaAt());
    fake.reply({ json: { answer: 42 }, usage: { input: 321, output: 17 } });
    const set = service.acquire();
    const result = await set.structured('default', ASK, { node: 'ast_planner' });
    expect(result.value).toEqual({ answer: 42 });
    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0]!;
    expect(req).toMatchObject({ wire: 'ollama', method: 'POST', path: '/api/chat', stream: false });
    expect(req.body).toMatchObject({
      model: 'qwen2.5-coder:3b',
      stream: false,
      format: ASK.schema,
      keep_alive: '30m',
      options: { num_ctx: NUM_CTX_FLOOR, seed: 42, temperature: 0 },
    });
    expect(req.body.options).not.toHaveProperty('num_predict');
    expect(req.body.tools).toBeUndefined();
    // The system prompt carries the schema too (format constrains tokens; the model never sees it).
    expect(req.body.messages).toEqual([
      { role: 'system', content: expect.stringContaining(ASK.system) },
      ASK.messages[0],
    ]);
    expect(req.body.messages[0].content).toContain(JSON.stringify(ASK.schema));
    // No key configured: no Authorization header at all (not the SDKs' placeholder).
    expect(req.headers.authorization).toBeUndefined();
    expect(result.calls).toEqual([
      expect.objectContaining({
        node: 'ast_planner',
        model: 'qwen2.5-coder:3b',
        input_tokens: 321,
        output_tokens: 17,
        total_tokens: 338,
        usage_reported: true,
        error: null,
      }),
    ]);
    service.release(set);
    await service.close();
  });

  it('accepts a base_url written for the OpenAI-compatible endpoint (ending in /v1) as the server root', async () => {
    const { service } = makeService(ollamaAt({ base_url: `${fake.url}/v1/` }));
    fake.reply({ json: { answer: 1 } });
    const set = service.acquire();
    await set.structured('default', ASK);
    expect(fake.requests.map((r) => r.path)).toEqual(['/api/chat']);
    expect(set.client('default').agent.baseUrl).toBe(fake.url);
    service.release(set);
    await service.close();
  });

  it('sizes num_ctx from the prompt in powers of two, caps it at num_ctx_max, and refuses a prompt over the cap without sending it', async () => {
    const { service } = makeService(
      ollamaAt({
        agents: {
          decomposer: { num_ctx_max: 8192 },
          ast_planner: { max_tokens: 3000, keep_alive: -1, temperature: null },
          verified_resolver: { keep_alive: null },
        },
      }),
    );
    const set = service.acquire();
    // About 20,000 characters: some 6,700 tokens at 3 characters a token, plus room for the answer.
    const long = { ...ASK, messages: [{ role: 'user' as const, content: 'How many rows? '.repeat(1334) }] };
    fake.reply(
      { json: { answer: 1 } },
      { json: { answer: 2 } },
      { json: { answer: 3 } },
      { json: { answer: 4 } },
    );
    await set.structured('default', long);
    await set.structured('decomposer', long);
    await set.structured('ast_planner', ASK);
    await set.structured('verified_resolver', ASK);
    const [big, capped, tuned, plain] = fake.requests.map((r) => r.body);
    expect(big.options.num_ctx).toBe(8192);
    expect(capped.options.num_ctx).toBe(8192);
    // max_tokens is sent as num_predict and is the room kept for the answer.
    expect(tuned.options).toEqual({ num_ctx: NUM_CTX_FLOOR, seed: 42, num_predict: 3000 });
    expect(tuned.keep_alive).toBe(-1);
    expect(plain).not.toHaveProperty('keep_alive');

    const longer = { ...ASK, messages: [{ role: 'user' as const, content: 'How many rows? '.repeat(2000) }] };
    const err = (await set.structured('decomposer', longer).catch((e: unknown) => e)) as LlmError;
    expect(err).toBeInstanceOf(LlmError);
    expect(err.code).toBe('PROVIDER_CONTEXT_TOO_LONG');
    expect(err.message).toMatch(/num_ctx_max \(8192\)/);
    expect(fake.requests).toHaveLength(4);
    service.release(set);
    await service.close();
  });

  it('asks json_mode with format "json" and tool_calling with a tool whose object arguments are the answer', async () => {
    const { service } = makeService(
      ollamaAt({
        agents: {
          decomposer: { structured_output: 'json_mode' },
          ast_planner: { structured_output: 'tool_calling' },
        },
      }),
    );
    const set = service.acquire();
    fake.reply({ json: { answer: 5 } }, { json: { answer: 6 } });
    expect((await set.structured('decomposer', ASK)).value).toEqual({ answer: 5 });
    expect((await set.structured('ast_planner', ASK)).value).toEqual({ answer: 6 });
    const [mode, tools] = fake.requests.map((r) => r.body);
    expect(mode.format).toBe('json');
    expect(mode.messages[0].content).toContain(JSON.stringify(ASK.schema));
    expect(tools).not.toHaveProperty('format');
    expect(tools.tools).toEqual([
      {
        type: 'function',
        function: { name: 'answer', description: 'Answer as answer', parameters: ASK.schema },
      },
    ]);
    // Streamed (a structured call given onDelta): the tool call comes on the last line, whole.
    fake.reply({ json: { answer: 8 } });
    const pieces: string[] = [];
    expect((await set.structured('ast_planner', ASK, { onDelta: (p) => pieces.push(p) })).value).toEqual({
      answer: 8,
    });
    expect(fake.requests[2]?.stream).toBe(true);
    expect(pieces).toEqual(['{"answer":8}']);
    service.release(set);
    await service.close();
  });

  it('sends a configured key as a bearer token, and the agent headers', async () => {
    const { service } = makeService(
      ollamaAt({ api_key: 'ollama-cloud-key-123', headers: { 'x-team': 'a' } }),
    );
    fake.reply({ json: { answer: 1 } });
    const set = service.acquire();
    await set.structured('default', ASK);
    expect(fake.requests[0]?.headers).toMatchObject({
      authorization: 'Bearer ollama-cloud-key-123',
      'x-team': 'a',
    });
    service.release(set);
    await service.close();
  });
});

describe('the answer step', () => {
  it('streams NDJSON pieces to onDelta and reads the usage from the last line', async () => {
    const { service } = makeService(ollamaAt());
    fake.reply({ text: 'There were 42 orders in 2023.', usage: { input: 250, output: 9 } });
    const set = service.acquire();
    const pieces: string[] = [];
    const result = await set.streamText(
      'default',
      { system: 'Summarise the rows.', messages: [{ role: 'user', content: 'rows: 42' }] },
      (p) => pieces.push(p),
      { node: 'answer_synthesizer' },
    );
    expect(result.text).toBe('There were 42 orders in 2023.');
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(result.text);
    const req = fake.requests[0]!;
    expect(req.stream).toBe(true);
    expect(req.body).toMatchObject({ stream: true, keep_alive: '30m', options: { num_ctx: NUM_CTX_FLOOR } });
    expect(req.body).not.toHaveProperty('format');
    expect(result.calls[0]).toMatchObject({ input_tokens: 250, output_tokens: 9, usage_reported: true });
    service.release(set);
    await service.close();
  });

  it('ends with PROVIDER_ERROR naming the server error sent as a line after the stream began', async () => {
    // A server that begins the answer, then sends Ollama's mid-stream error line (status stays 200).
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(
        `${JSON.stringify({ model: 'm', message: { role: 'assistant', content: 'The' }, done: false })}\n`,
      );
      res.end(`${JSON.stringify({ error: 'an error was encountered while running the model' })}\n`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const broken = makeService(ollamaAt({ base_url: `http://127.0.0.1:${port}` })).service;
    const set = broken.acquire();
    const err = (await set
      .streamText('default', { system: 's', messages: [{ role: 'user', content: 'q' }] }, () => undefined)
      .catch((e: unknown) => e)) as LlmError;
    expect(err.code).toBe('PROVIDER_ERROR');
    expect(err.message).toMatch(/an error was encountered while running the model/);
    broken.release(set);
    await broken.close();
    await new Promise<void>((r) => server.close(() => r()));
  });
});

describe('failures', () => {
  const CASES: [FakeFailure, string, RegExp][] = [
    ['auth', 'PROVIDER_AUTH_FAILED', /HTTP 401: unauthorized/],
    [
      'not_found',
      'PROVIDER_MODEL_NOT_FOUND',
      /model 'qwen2\.5-coder:3b' not found.*ollama pull qwen2\.5-coder:3b/,
    ],
    ['rate_limit', 'PROVIDER_RATE_LIMITED', /HTTP 429/],
    ['server', 'PROVIDER_UNAVAILABLE', /HTTP 500: llama runner process has terminated/],
    ['overloaded', 'PROVIDER_UNAVAILABLE', /HTTP 503: server busy/],
    ['bad_request', 'PROVIDER_BAD_REQUEST', /HTTP 400: invalid format/],
  ];

  test.each(CASES)('a %s answer is %s with the server words', async (failure, code, words) => {
    const { service } = makeService(ollamaAt());
    fake.reply({ fail: failure });
    const set = service.acquire();
    const err = (await set
      .structured('default', ASK, { node: 'ast_planner' })
      .catch((e: unknown) => e)) as LlmError;
    expect(err).toBeInstanceOf(LlmError);
    expect(err.code).toBe(code);
    expect(err.provider).toBe('ollama');
    expect(err.message).toMatch(words);
    expect(err.providerResponse).toMatchObject({
      status: expect.any(Number),
      body: { error: expect.any(String) },
    });
    expect(err.calls).toEqual([
      expect.objectContaining({ node: 'ast_planner', error: code, usage_reported: false }),
    ]);
    expect(fake.requests).toHaveLength(1);
    service.release(set);
    await service.close();
  });

  it('retries a 5xx max_retries times (twice when unset) and takes the answer that follows', async () => {
    const once = makeService(ollamaAt({ max_retries: 1 })).service;
    fake.reply({ fail: 'server' }, { json: { answer: 7 } });
    let set = once.acquire();
    expect((await set.structured('default', ASK)).value).toEqual({ answer: 7 });
    expect(fake.requests).toHaveLength(2);
    once.release(set);
    await once.close();

    fake.reset();
    const { max_retries: _unset, ...defaults } = ollamaAt();
    const unset = makeService(defaults).service;
    fake.reply({ fail: 'server' }, { fail: 'overloaded' }, { fail: 'server' });
    set = unset.acquire();
    await expect(set.structured('default', ASK)).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    expect(fake.requests).toHaveLength(3);
    unset.release(set);
    await unset.close();
  });

  it('ends a call that gets no answer within timeout_s with PROVIDER_TIMEOUT, and closes its request', async () => {
    const { service } = makeService(ollamaAt({ timeout_s: 0.3 }));
    fake.reply({ hang: true });
    const set = service.acquire();
    await expect(set.structured('default', ASK)).rejects.toMatchObject({
      code: 'PROVIDER_TIMEOUT',
      provider: 'ollama',
    });
    await until(() => fake.abandoned === 1);
    service.release(set);
    await service.close();
  });

  it('reports a refused connection as PROVIDER_UNAVAILABLE naming the endpoint and what to do', async () => {
    const closed = await FakeModelServer.start();
    const root = closed.ollamaBaseUrl;
    await closed.close();
    const { service } = makeService(ollamaAt({ base_url: root }));
    const set = service.acquire();
    const err = (await set.structured('default', ASK).catch((e: unknown) => e)) as LlmError;
    expect(err.code).toBe('PROVIDER_UNAVAILABLE');
    expect(err.message).toContain(root);
    expect(err.message).toMatch(/ECONNREFUSED/);
    expect(err.message).toMatch(/ollama serve.*ollama pull qwen2\.5-coder:3b/);
    service.release(set);
    await service.close();
  });
});

describe('cancellation', () => {
  it('a cancelled structured call closes its request', async () => {
    const { service } = makeService(ollamaAt());
    fake.reply({ hang: true });
    const set = service.acquire();
    const controller = new AbortController();
    const call = set.structured('default', ASK, { signal: controller.signal }).catch((e: unknown) => e);
    await until(() => fake.requests.length === 1);
    controller.abort(new Error('run cancelled'));
    const err = (await call) as LlmError;
    expect(err).toBeInstanceOf(LlmError);
    expect(err.code).toBe('PROVIDER_ERROR');
    expect(err.message).toMatch(/aborted/);
    await until(() => fake.abandoned === 1);
    service.release(set);
    await service.close();
  });

  it('a cancelled streamed answer closes its stream after the first pieces', async () => {
    const { service } = makeService(ollamaAt());
    fake.reply({ text: 'The answer is forty-two, as everyone knows.', streamFault: 'stall' });
    const set = service.acquire();
    const controller = new AbortController();
    const pieces: string[] = [];
    const call = set
      .streamText(
        'default',
        { system: 's', messages: [{ role: 'user', content: 'q' }] },
        (p) => pieces.push(p),
        {
          signal: controller.signal,
        },
      )
      .catch((e: unknown) => e);
    await until(() => pieces.length > 0);
    controller.abort();
    expect(await call).toMatchObject({ code: 'PROVIDER_ERROR' });
    await until(() => fake.abandoned === 1);
    service.release(set);
    await service.close();
  });

  it('closing the client ends the calls in flight with LLM_CLIENT_CLOSED and closes their requests', async () => {
    const { service } = makeService(ollamaAt());
    fake.reply({ hang: true });
    const set = service.acquire();
    const call = set.structured('default', ASK).catch((e: unknown) => e);
    await until(() => fake.requests.length === 1);
    await set.client('default').client.client.close();
    expect(await call).toMatchObject({ code: 'LLM_CLIENT_CLOSED' });
    await until(() => fake.abandoned === 1);
    service.release(set);
    await service.close();
  });
});

describe('which wire', () => {
  it('ollama speaks native by default; local_server (the spec word) the OpenAI wire at <root>/v1; wire: picks either', async () => {
    const { service } = makeService({
      provider: 'ollama',
      model: 'm',
      base_url: fake.url,
      max_retries: 0,
      agents: {
        decomposer: { provider: 'local_server' },
        ast_planner: { provider: 'local_server', wire: 'native' },
        verified_resolver: { wire: 'openai' },
      },
    });
    fake.reply(
      { json: { answer: 1 } },
      { json: { answer: 2 } },
      { json: { answer: 3 } },
      { json: { answer: 4 } },
    );
    const set = service.acquire();
    for (const agent of ['default', 'decomposer', 'ast_planner', 'verified_resolver'])
      await set.structured(agent, ASK);
    expect(fake.requests.map((r) => r.path)).toEqual([
      '/api/chat',
      '/v1/chat/completions',
      '/api/chat',
      '/v1/chat/completions',
    ]);
    // The OpenAI wire to Ollama keeps its old request: JSON schema response format, no options.
    expect(fake.requests[1]?.body.response_format.type).toBe('json_schema');
    expect(fake.requests[1]?.body.options).toBeUndefined();
    expect(['default', 'decomposer'].map((a) => set.client(a).agent.baseUrl)).toEqual([
      fake.url,
      `${fake.url}/v1`,
    ]);
    service.release(set);
    await service.close();

    // Without base_url: Ollama's documented root, and /v1 under it for the OpenAI wire.
    const presets = makeService({
      provider: 'ollama',
      model: 'm',
      agents: { decomposer: { provider: 'local_server' } },
    }).service;
    expect(['default', 'decomposer'].map((a) => presets.current().client(a).agent.baseUrl)).toEqual([
      'http://127.0.0.1:11434',
      'http://127.0.0.1:11434/v1',
    ]);
    await presets.close();
  });

  it('names Ollama keys set where they do nothing, and a keep_alive Ollama would not read', () => {
    const problems = (llm: unknown): string => {
      try {
        makeService(llm);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      return '';
    };
    expect(problems({ provider: 'openai', model: 'm', api_key: 'k', num_ctx_max: 8192 })).toMatch(
      /llm\.num_ctx_max: 'num_ctx_max' applies to provider ollama \(or local_server\) only, not 'openai'/,
    );
    expect(
      problems({
        provider: 'ollama',
        model: 'm',
        agents: { decomposer: { wire: 'openai', keep_alive: '5m' } },
      }),
    ).toMatch(/llm\.agents\.decomposer\.keep_alive: .*native wire only/);
    expect(problems({ provider: 'ollama', model: 'm', keep_alive: '5 minutes' })).toMatch(/keep_alive/);
    // Inherited from an ollama default agent, the keys are no mistake on another provider's agent.
    expect(
      problems({
        provider: 'ollama',
        model: 'm',
        num_ctx_max: 8192,
        keep_alive: '1h',
        agents: { answer_synthesizer: { provider: 'openai', model: 'gpt-4.1-mini', api_key: 'k' } },
      }),
    ).toBe('');
  });
});
