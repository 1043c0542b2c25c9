/**
 * Embedding requests on the OpenAI wire, for the schema index's `openai` embedder. It lives here
 * because only engine/llm/providers imports model SDKs; failures become the same PROVIDER_* errors
 * as model calls (keys redacted).
 */
import OpenAI from 'openai';
import { toProviderError } from './error-mapping';

export interface EmbeddingsClientOptions {
  readonly apiKey: string;
  readonly baseUrl?: string | null;
  readonly maxRetries?: number;
  readonly timeoutMs?: number;
}

export interface EmbeddingsResponse {
  /** One vector per input, in input order. */
  readonly vectors: number[][];
  readonly promptTokens: number;
}

export interface EmbeddingsClient {
  embed(model: string, input: readonly string[]): Promise<EmbeddingsResponse>;
}

export function createOpenAiEmbeddingsClient(options: EmbeddingsClientOptions): EmbeddingsClient {
  const client = new OpenAI({
    apiKey: options.apiKey,
    ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
  });
  const baseUrl = options.baseUrl ?? client.baseURL;
  return {
    async embed(model, input) {
      try {
        const response = await client.embeddings.create({
          model,
          input: [...input],
          encoding_format: 'float',
        });
        const byIndex = [...response.data].sort((a, b) => a.index - b.index);
        return { vectors: byIndex.map((d) => d.embedding), promptTokens: response.usage?.prompt_tokens ?? 0 };
      } catch (err) {
        throw toProviderError(err, {
          provider: 'openai',
          label: 'OpenAI embeddings',
          model,
          agent: 'embeddings',
          sentTemperature: false,
          baseUrl,
        });
      }
    },
  };
}
