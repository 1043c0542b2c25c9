/**
 * A newcomer without a model is told what to do (issue 16, item 4): the start-up probe finds the
 * agents whose endpoint does not answer, and a run's PROVIDER_UNAVAILABLE carries the same hint.
 */
import { createServer } from 'node:net';
import { SecretManager } from '../../../src/config/secrets';
import { LlmService } from '../../../src/engine/llm/llm-service';
import { probeAgents } from '../../../src/engine/llm/reachability';
import { FakeModelServer } from '../../support/fake-model';

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

it('names the agents whose model does not answer, and what to do', async () => {
  const fake = await FakeModelServer.start();
  const port = await closedPort();
  const llm = new LlmService({
    llm: {
      provider: 'ollama',
      model: 'llama3.1:8b',
      base_url: `http://127.0.0.1:${port}/v1`,
      agents: {
        answer_synthesizer: { provider: 'openai_compatible', model: 'm', base_url: fake.openaiBaseUrl },
      },
    },
    secrets: new SecretManager({}),
  });
  try {
    const found = await probeAgents(llm.current());
    const byAgent = Object.fromEntries(found.map((a) => [a.agent, a]));
    expect(byAgent.default).toMatchObject({ reachable: false, provider: 'ollama' });
    expect(byAgent.default!.hint).toMatch(/ollama serve.*ollama pull llama3\.1:8b.*OPENAI_API_KEY/);
    expect(byAgent.answer_synthesizer).toMatchObject({ reachable: true, hint: null });
    // A run meets the same advice in its error.
    const set = llm.acquire();
    const failure = await set
      .text('default', { system: 's', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e as { code: string; message: string });
    llm.release(set);
    expect(failure).toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    expect((failure as { message: string }).message).toMatch(/ollama pull llama3\.1:8b/);
  } finally {
    await llm.close();
    await fake.close();
  }
});

it("asks Ollama's native list for an ollama agent, and names a model the server has not pulled", async () => {
  const fake = await FakeModelServer.start();
  fake.ollamaModels = ['qwen2.5-coder:3b', 'llama3.2:latest'];
  const llm = new LlmService({
    llm: {
      provider: 'ollama',
      model: 'qwen2.5-coder:3b',
      // Written for the OpenAI-compatible endpoint: still the server root on the native wire.
      base_url: `${fake.url}/v1`,
      agents: {
        decomposer: { model: 'llama3.2' },
        ast_planner: { model: 'sqlcoder:7b' },
        verified_resolver: { wire: 'openai' },
      },
    },
    secrets: new SecretManager({}),
  });
  try {
    const byAgent = Object.fromEntries((await probeAgents(llm.current())).map((a) => [a.agent, a]));
    expect(byAgent.default).toMatchObject({ endpoint: fake.url, reachable: true, hint: null });
    expect(byAgent.decomposer).toMatchObject({ reachable: true, hint: null });
    expect(byAgent.ast_planner).toMatchObject({ reachable: true });
    expect(byAgent.ast_planner!.hint).toMatch(/has no model 'sqlcoder:7b': run 'ollama pull sqlcoder:7b'/);
    // One probe of the list serves every native agent; the OpenAI-wire agent asks <root>/v1/models.
    expect(fake.probes).toEqual(['/api/tags']);
    expect(byAgent.verified_resolver).toMatchObject({
      endpoint: `${fake.url}/v1`,
      reachable: true,
      hint: null,
    });
    expect(fake.requests).toHaveLength(0);
  } finally {
    await llm.close();
    await fake.close();
  }
});
