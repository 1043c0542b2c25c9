/**
 * The `openai` embedder: an embedding model through the `openai` SDK, sent in batches, with the
 * provider's token usage recorded. SDK failures become `PROVIDER_*` engine errors with any key
 * redacted, as for model calls.
 */
import OpenAI from 'openai';
import { redact } from '../../../config/redact';
import { EngineError } from '../../errors';
import { normalise, type Embedder, type EmbeddingUsage } from './embedder';

export const DEFAULT_OPENAI_EMBEDDING_MODEL = 'text-embedding-3-small';

export interface OpenAiEmbedderOptions {
  readonly apiKey: string;
  readonly model?: string;
  readonly baseUrl?: string | null;
  readonly batchSize?: number;
  readonly maxRetries?: number;
  readonly timeoutMs?: number;
}

export class OpenAiEmbedder implements Embedder {
  readonly provider = 'openai' as const;
  readonly model: string;
  private readonly client: OpenAI;
  private readonly batchSize: number;
  private calls = 0;
  private texts = 0;
  private inputTokens = 0;

  constructor(options: OpenAiEmbedderOptions) {
    this.model = options.model ?? DEFAULT_OPENAI_EMBEDDING_MODEL;
    this.batchSize = options.batchSize ?? 256;
    this.client = new OpenAI({
      apiKey: options.apiKey,
      ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
      ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
      ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
    });
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      const batch = texts.slice(start, start + this.batchSize);
      // An empty string is rejected by the wire; a single space embeds as "nothing in particular".
      const input = batch.map((t) => (t.trim() ? t : ' '));
      let response: OpenAI.Embeddings.CreateEmbeddingResponse;
      try {
        response = await this.client.embeddings.create({ model: this.model, input, encoding_format: 'float' });
      } catch (err) {
        throw providerError(err, this.model);
      }
      this.calls++;
      this.texts += batch.length;
      this.inputTokens += response.usage?.prompt_tokens ?? 0;
      const byIndex = [...response.data].sort((a, b) => a.index - b.index);
      if (byIndex.length !== batch.length) {
        throw new EngineError(
          'PROVIDER_BAD_RESPONSE',
          `embedding model ${this.model} returned ${byIndex.length} vectors for ${batch.length} texts`,
        );
      }
      for (const d of byIndex) out.push(normalise(Float32Array.from(d.embedding)));
    }
    return out;
  }

  usage(): EmbeddingUsage {
    return { calls: this.calls, texts: this.texts, inputTokens: this.inputTokens };
  }
}

function providerError(err: unknown, model: string): EngineError {
  const message = redact(err instanceof Error ? err.message : String(err));
  const detail = { provider: 'openai', model };
  if (err instanceof OpenAI.AuthenticationError || err instanceof OpenAI.PermissionDeniedError) {
    return new EngineError('PROVIDER_AUTH_FAILED', `embedding provider rejected the key: ${message}`, detail);
  }
  if (err instanceof OpenAI.RateLimitError) {
    return new EngineError('PROVIDER_RATE_LIMITED', `embedding provider rate limit: ${message}`, detail);
  }
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return new EngineError('PROVIDER_TIMEOUT', `embedding request timed out: ${message}`, detail);
  }
  if (err instanceof OpenAI.BadRequestError || err instanceof OpenAI.NotFoundError || err instanceof OpenAI.UnprocessableEntityError) {
    return new EngineError('PROVIDER_BAD_REQUEST', `embedding request rejected: ${message}`, detail);
  }
  if (err instanceof OpenAI.APIConnectionError || err instanceof OpenAI.InternalServerError) {
    return new EngineError('PROVIDER_UNAVAILABLE', `embedding provider unavailable: ${message}`, detail);
  }
  return new EngineError('PROVIDER_ERROR', `embedding request failed: ${message}`, detail);
}
