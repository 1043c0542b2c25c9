/**
 * The `local` embedder: shipped with the project, no network, no key, deterministic. A text becomes
 * a hashed bag of features (the feature-hashing trick): its stemmed terms and the expansions of
 * identifier abbreviations (full weight), the terms the bundled lexicon relates to them (lower
 * weight: "oldest" lands near `age`), and character trigrams (low weight: spelling and morphology
 * the stemmer misses). Two texts are close when they share meaning-bearing words or their
 * relatives, which is what matching a question to a schema needs.
 */
import { charNgrams, splitWords, stem, STOPWORDS } from '../text/tokens';
import { lexicon } from '../text/lexicon';
import { normalise, type Embedder, type EmbeddingUsage } from './embedder';

export const LOCAL_MODEL = 'local-hash-v1';
const RELATED_WEIGHT = 0.35;
const NGRAM_WEIGHT = 0.3;

/** FNV-1a, 32 bits: stable across processes and platforms. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class LocalEmbedder implements Embedder {
  readonly provider = 'local' as const;
  readonly model: string;
  private calls = 0;
  private texts = 0;

  constructor(private readonly dimensions = 512) {
    this.model = `${LOCAL_MODEL}-${dimensions}`;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.calls++;
    this.texts += texts.length;
    return texts.map((t) => this.embedOne(t));
  }

  embedSync(text: string): Float32Array {
    return this.embedOne(text);
  }

  usage(): EmbeddingUsage {
    return { calls: this.calls, texts: this.texts, inputTokens: 0 };
  }

  private embedOne(text: string): Float32Array {
    const v = new Float32Array(this.dimensions);
    const add = (feature: string, weight: number) => {
      const h = hash(feature);
      const i = h % this.dimensions;
      v[i] = (v[i] ?? 0) + (h & 0x80000000 ? -weight : weight);
    };
    const lex = lexicon();
    for (const word of splitWords(text)) {
      if (STOPWORDS.has(word)) continue;
      const t = stem(word);
      const full = lex.expand(t) ?? t;
      add(`w:${full}`, 1);
      const related = lex.related(full);
      const rw = related.length ? RELATED_WEIGHT / Math.sqrt(related.length) : 0;
      for (const r of related) add(`w:${r}`, rw);
      const grams = charNgrams(full);
      const gw = NGRAM_WEIGHT / Math.sqrt(grams.length);
      for (const g of grams) add(`g:${g}`, gw);
    }
    return normalise(v);
  }
}
