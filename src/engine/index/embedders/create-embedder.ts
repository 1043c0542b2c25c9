/**
 * Builds the engine's embedder from its `embeddings` config section. `alpha` is the spec's neutral
 * name for `openai`. Key rules as for models: `api_key` (a literal or a secret reference resolved by
 * the SecretManager), else the standard `OPENAI_API_KEY` variable.
 */
import type { EmbeddingsConfig } from '../../../config/schema';
import { SecretManager } from '../../../config/secrets';
import { EngineError } from '../../errors';
import type { Embedder } from './embedder';
import { LocalEmbedder } from './local-embedder';
import { OpenAiEmbedder } from './openai-embedder';

export const OPENAI_KEY_VARIABLE = 'OPENAI_API_KEY';

export function createEmbedder(
  config: EmbeddingsConfig | undefined,
  secrets: SecretManager = new SecretManager(),
): Embedder {
  const provider = config?.provider ?? 'local';
  switch (provider) {
    case 'local':
      return new LocalEmbedder();
    case 'openai':
    case 'alpha': {
      const apiKey = config?.api_key
        ? secrets.resolve(config.api_key, 'embeddings.api_key')
        : secrets.fromEnv(OPENAI_KEY_VARIABLE);
      if (!apiKey) {
        throw new EngineError(
          'EMBEDDINGS_KEY_MISSING',
          `embeddings provider '${provider}' needs an API key: set ${OPENAI_KEY_VARIABLE} or embeddings.api_key`,
          { provider, key_variable: OPENAI_KEY_VARIABLE },
        );
      }
      return new OpenAiEmbedder({
        apiKey,
        model: config?.model,
        baseUrl: config?.base_url,
        batchSize: config?.batch_size,
      });
    }
  }
}
