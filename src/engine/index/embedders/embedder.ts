/**
 * An embedder turns texts into vectors. Each engine builds its own from the `embeddings` config
 * section (spec 4.16 item 12): embeddings never go through the LLM set.
 */
export interface EmbeddingUsage {
  /** Requests sent (local: calls of `embed`). */
  readonly calls: number;
  readonly texts: number;
  /** Tokens the provider reported; 0 for the local embedder. */
  readonly inputTokens: number;
}

export interface Embedder {
  readonly provider: 'local' | 'openai';
  /** Stored with every entry: an index is only read with the model that wrote it. */
  readonly model: string;
  /** Vectors are L2-normalised, so cosine similarity is their dot product. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  usage(): EmbeddingUsage;
}

export function normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  if (sum > 0) {
    const inv = 1 / Math.sqrt(sum);
    for (let i = 0; i < v.length; i++) v[i] = (v[i] ?? 0) * inv;
  }
  return v;
}

export function dot(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let s = 0;
  for (let i = 0; i < n; i++) s += (a[i] ?? 0) * (b[i] ?? 0);
  return s;
}
