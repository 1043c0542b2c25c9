/**
 * The baseline: plain BM25 (k1 1.2, b 0.75) over table and column names split into words, and for
 * routing also the words of the sample text values. No stemming, no related words, no structure.
 */
import type { SchemaSnapshot } from '../../src/engine/datasources/schema';
import { splitWords, STOPWORDS } from '../../src/engine/index/text/tokens';

const K1 = 1.2;
const B = 0.75;

export function words(text: string): string[] {
  return splitWords(text).filter((w) => !STOPWORDS.has(w));
}

export class Bm25<T> {
  private readonly tf: Map<string, number>[];
  private readonly lengths: number[];
  private readonly avg: number;
  private readonly idf = new Map<string, number>();

  constructor(readonly docs: readonly { readonly item: T; readonly words: readonly string[] }[]) {
    this.tf = docs.map((d) => {
      const m = new Map<string, number>();
      for (const w of d.words) m.set(w, (m.get(w) ?? 0) + 1);
      return m;
    });
    this.lengths = docs.map((d) => d.words.length);
    this.avg = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, docs.length);
    const df = new Map<string, number>();
    for (const m of this.tf) for (const w of m.keys()) df.set(w, (df.get(w) ?? 0) + 1);
    const n = docs.length;
    for (const [w, f] of df) this.idf.set(w, Math.log(1 + (n - f + 0.5) / (f + 0.5)));
  }

  rank(query: readonly string[]): T[] {
    const scores = this.docs.map((_, i) => {
      const tf = this.tf[i] ?? new Map<string, number>();
      const len = this.lengths[i] ?? 0;
      let s = 0;
      for (const w of new Set(query)) {
        const f = tf.get(w);
        if (!f) continue;
        s += (this.idf.get(w) ?? 0) * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * len) / (this.avg || 1))));
      }
      return { i, s };
    });
    scores.sort((a, b) => b.s - a.s || a.i - b.i);
    return scores.map((x) => this.docs[x.i]!.item);
  }
}

export interface Bm25Table {
  readonly db: string;
  readonly table: string;
}
export interface Bm25Column extends Bm25Table {
  readonly column: string;
}

/** The three corpora of the baseline: one document per database, per table, per column. */
export function bm25Corpora(snapshots: readonly SchemaSnapshot[]): {
  routing: Bm25<string>;
  tables: Bm25<Bm25Table>;
  columns: Bm25<Bm25Column>;
} {
  const dbDocs = snapshots.map((s) => ({
    item: s.datasourceId,
    words: s.tables.flatMap((t) => [
      ...words(t.name),
      ...t.columns.flatMap((c) => [
        ...words(c.name),
        ...c.sampleValues.filter((v) => typeof v === 'string').flatMap((v) => words(String(v))),
      ]),
    ]),
  }));
  const tableDocs = snapshots.flatMap((s) =>
    s.tables.map((t) => ({
      item: { db: s.datasourceId, table: t.name },
      words: [...words(t.name), ...t.columns.flatMap((c) => words(c.name))],
    })),
  );
  const columnDocs = snapshots.flatMap((s) =>
    s.tables.flatMap((t) =>
      t.columns.map((c) => ({
        item: { db: s.datasourceId, table: t.name, column: c.name },
        words: [...words(c.name), ...words(t.name)],
      })),
    ),
  );
  return { routing: new Bm25(dbDocs), tables: new Bm25(tableDocs), columns: new Bm25(columnDocs) };
}
