import { SecretManager } from '../../../src/config/secrets';
import { createEmbedder } from '../../../src/engine/index/embedders/create-embedder';
import { OpenAiEmbedder } from '../../../src/engine/index/embedders/openai-embedder';
import { IndexService } from '../../../src/engine/index/index-service';
import { DuckDbIndexStore } from '../../../src/engine/index/store/duckdb-index-store';
import { school } from '../../support/index-fixtures';
import { startFakeEmbeddings, type FakeEmbeddingsServer } from './fake-embeddings-server';

describe('openai embedder over the real SDK', () => {
  let server: FakeEmbeddingsServer;
  beforeEach(async () => {
    server = await startFakeEmbeddings({ rejectKey: 'sk-rejected-key-0123456789' });
  });
  afterEach(() => server.close());

  it('sends batches, keeps input order and records usage', async () => {
    const e = new OpenAiEmbedder({
      apiKey: 'sk-test-key-0123456789',
      baseUrl: server.baseUrl,
      batchSize: 2,
      model: 'text-embedding-3-small',
    });
    const vectors = await e.embed(['a', 'bb', 'ccc', '', 'eeeee f']);
    expect(server.requests.map((r) => r.body.input)).toEqual([['a', 'bb'], ['ccc', ' '], ['eeeee f']]);
    expect(server.requests[0]?.body.model).toBe('text-embedding-3-small');
    expect(server.requests[0]?.authorization).toBe('Bearer sk-test-key-0123456789');
    // Vector [len, 1, 0] normalised: its first component grows with the input's length.
    const first = vectors.map((v) => v[0]!);
    expect(first[0]).toBeCloseTo(1 / Math.SQRT2, 5);
    expect(first[2]).toBeCloseTo(3 / Math.sqrt(10), 5);
    expect(first[4]).toBeGreaterThan(first[2]!);
    expect(e.usage()).toEqual({ calls: 3, texts: 5, inputTokens: 5 });
  });

  it('takes the key from embeddings.api_key through the secret manager, else OPENAI_API_KEY', async () => {
    const secrets = new SecretManager({ EMB_KEY: 'sk-from-ref-0123456789' });
    const byRef = createEmbedder(
      { provider: 'openai', api_key: '${env:EMB_KEY}', base_url: server.baseUrl },
      secrets,
    );
    await byRef.embed(['x']);
    expect(server.requests.at(-1)?.authorization).toBe('Bearer sk-from-ref-0123456789');

    const byEnv = createEmbedder(
      { provider: 'alpha', base_url: server.baseUrl, model: 'text-embedding-3-large' },
      new SecretManager({ OPENAI_API_KEY: 'sk-env-key-0123456789' }),
    );
    expect(byEnv.model).toBe('text-embedding-3-large');
    await byEnv.embed(['y']);
    expect(server.requests.at(-1)?.authorization).toBe('Bearer sk-env-key-0123456789');
  });

  it('names the variable to set when there is no key', () => {
    expect(() => createEmbedder({ provider: 'openai' }, new SecretManager({}))).toThrow(
      expect.objectContaining({
        code: 'EMBEDDINGS_KEY_MISSING',
        message: expect.stringContaining('OPENAI_API_KEY'),
      }),
    );
  });

  it('turns a rejected key into PROVIDER_AUTH_FAILED without showing the key', async () => {
    const e = new OpenAiEmbedder({
      apiKey: 'sk-rejected-key-0123456789',
      baseUrl: server.baseUrl,
      maxRetries: 0,
    });
    const err = await e.embed(['x']).then(
      () => ({ code: 'NONE', message: 'embed unexpectedly succeeded' }),
      (x: unknown) => x as { code: string; message: string },
    );
    expect(err).toMatchObject({ code: 'PROVIDER_AUTH_FAILED' });
    expect(err.message).not.toContain('sk-rejected-key-0123456789');
  });

  it('builds an index with it and reports the usage in the build stats', async () => {
    const index = new IndexService({
      store: new DuckDbIndexStore(':memory:'),
      embedder: new OpenAiEmbedder({
        apiKey: 'sk-test-key-0123456789',
        baseUrl: server.baseUrl,
        batchSize: 8,
      }),
    });
    await index.open();
    try {
      const stats = await index.indexDatasource('school', school());
      expect(stats.embedding_model).toBe('text-embedding-3-small');
      expect(stats.embedding_usage.calls).toBe(Math.ceil(stats.entries / 8));
      expect(stats.embedding_usage.input_tokens).toBeGreaterThan(0);
      const failing = new IndexService({
        store: new DuckDbIndexStore(':memory:'),
        embedder: new OpenAiEmbedder({
          apiKey: 'sk-rejected-key-0123456789',
          baseUrl: server.baseUrl,
          maxRetries: 0,
        }),
      });
      await failing.open();
      await expect(failing.indexDatasource('school', school())).rejects.toMatchObject({
        code: 'PROVIDER_AUTH_FAILED',
      });
      await failing.close();
    } finally {
      await index.close();
    }
  });
});
