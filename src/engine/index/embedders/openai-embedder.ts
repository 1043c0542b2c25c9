/**
 * The `openai` embedder: an embedding model through the `openai` SDK, sent in batches, with the
 * provider's token usage recorded. SDK failures become `PROVIDER_*` engine errors with any key
 * redacted, as for model calls.
 */
import { EngineError } from '../../errors';
import { createOpenAiEmbeddingsClient, type EmbeddingsClient } from '../../llm/providers/openai-embeddings';
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
  private readonly client: EmbeddingsClient;
  private readonly batchSize: number;
  private calls = 0;
  private texts = 0;
  private inputTokens = 0;

  constructor(options: OpenAiEmbedderOptions) {
    this.model = options.model ?? DEFAULT_OPENAI_EMBEDDING_MODEL;
    this.batchSize = options.batchSize ?? 256;
    this.client = createOpenAiEmbeddingsClient(options);
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      const batch = texts.slice(start, start + this.batchSize);
      // An empty string is rejected by the wire; a single space embeds as "nothing in particular".
      const input = batch.map((t) => (t.trim() ? t : ' '));
      const response = await this.client.embed(this.model, input);
      this.calls++;
      this.texts += batch.length;
      this.inputTokens += response.promptTokens;
      const byIndex = response.vectors;
      if (byIndex.length !== batch.length) {
        throw new EngineError(
          'PROVIDER_BAD_RESPONSE',
          `embedding model ${this.model} returned ${byIndex.length} vectors for ${batch.length} texts`,
        );
      }
      for (const v of byIndex) out.push(normalise(Float32Array.from(v)));
    }
    return out;
  }

  usage(): EmbeddingUsage {
    return { calls: this.calls, texts: this.texts, inputTokens: this.inputTokens };
  }
}
