/**
 * The value index in memory: the distinct text values of every indexed column, looked up by the
 * words and phrases of a question. Three ways to match, best first:
 *   - a phrase of the question is a stored value once case, accents and punctuation are dropped
 *     ("france" -> "France", "sao paulo" -> "São Paulo");
 *   - the same after correcting a misspelt word to a word some value contains ("Gelderlnd" ->
 *     "Gelderland"; edit distance 1, or 2 for long words, found through character trigrams);
 *   - the same with the words joined differently ("APP000022" -> "APP-000022");
 *   - most of a short value's words are in the question ("Kyle" -> "Kyle Smith").
 * Built once per load from the store's rows (like the retriever), so a lookup costs no round trip.
 */
import { distance } from 'fastest-levenshtein';
import { STOPWORDS } from '../text/tokens';
import { normaliseText } from './normalise';

/** One distinct value of one column, as the store keeps it. */
export interface StoredValue {
  readonly datasourceId: string;
  readonly table: string;
  readonly column: string;
  readonly value: string;
  /** Rows holding the value in what was scanned. */
  readonly frequency: number;
}

export type MatchKind = 'exact' | 'fuzzy' | 'partial';

export interface ValueMatch {
  readonly datasourceId: string;
  readonly table: string;
  readonly column: string;
  /** Spelled as stored. */
  readonly value: string;
  readonly kind: MatchKind;
  /** 1 for an exact match, lower for corrected and partial ones. */
  readonly score: number;
  readonly frequency: number;
}

export interface LookupOptions {
  /** Only values of these datasources; all when absent. */
  readonly datasourceIds?: readonly string[];
  /** At most this many matches (best first). */
  readonly limit?: number;
  /** At most this many matches per column. */
  readonly perColumn?: number;
}

/** Longest phrase of the question tried as a whole value, in words. */
const MAX_SPAN = 6;
/** A word in more values than this is too common to find values by (partial matches). */
const PARTIAL_POSTINGS_MAX = 400;
const PARTIAL_WEIGHT = 0.7;
const PARTIAL_MIN_COVER = 0.5;
const FUZZY_WEIGHT = [1, 0.9, 0.8] as const;
/** The question joins or splits the words of a value differently ("APP000022", "home town"). */
const COMPACT_WEIGHT = 0.95;

interface WordChoice {
  readonly word: string;
  readonly weight: number;
}

export class ValueIndex {
  private readonly values: readonly StoredValue[];
  /** Normalised whole value -> value ids. */
  private readonly byText = new Map<string, number[]>();
  /** A multi-word value written without its spaces and punctuation ("APP-000022" as "app000022"). */
  private readonly byCompact = new Map<string, number[]>();
  /** Word -> ids of the values containing it. */
  private readonly byWord = new Map<string, number[]>();
  /** Trigram of a padded word -> words, for spelling corrections. */
  private readonly byGram = new Map<string, string[]>();
  private readonly wordCounts: Uint16Array;
  /** `${ds}\0${table}\0${column}` -> ids, most frequent first. */
  private readonly byColumn = new Map<string, number[]>();

  constructor(values: readonly StoredValue[]) {
    this.values = values;
    this.wordCounts = new Uint16Array(values.length);
    values.forEach((v, id) => {
      push(this.byColumn, columnKey(v.datasourceId, v.table, v.column), id);
      const text = normaliseText(v.value);
      if (!text) return;
      push(this.byText, text, id);
      if (text.includes(' ')) push(this.byCompact, text.replace(/ /g, ''), id);
      const ws = new Set(text.split(' '));
      this.wordCounts[id] = Math.min(ws.size, 0xffff);
      for (const w of ws) push(this.byWord, w, id);
    });
    for (const ids of this.byColumn.values())
      ids.sort((a, b) => (values[b]?.frequency ?? 0) - (values[a]?.frequency ?? 0) || a - b);
    for (const w of this.byWord.keys()) {
      if (w.length < 4) continue;
      for (const g of grams(w)) push(this.byGram, g, w);
    }
  }

  get size(): number {
    return this.values.length;
  }

  /** Every value held, in load order. */
  all(): readonly StoredValue[] {
    return this.values;
  }

  /** The `n` most frequent values of a column (none when the column is not indexed). */
  typical(datasourceId: string, table: string, column: string, n: number): string[] {
    const ids = this.byColumn.get(columnKey(datasourceId, table, column)) ?? [];
    return ids.slice(0, n).map((id) => this.values[id]!.value);
  }

  /** Whether every value read of the column occurred once (e-mails, names, codes); false when not indexed. */
  isUnique(datasourceId: string, table: string, column: string): boolean {
    const ids = this.byColumn.get(columnKey(datasourceId, table, column));
    return ids !== undefined && ids.length > 1 && (this.values[ids[0]!]?.frequency ?? 0) <= 1;
  }

  /** Values of the question's words and phrases, best first. */
  lookup(question: string, options: LookupOptions = {}): ValueMatch[] {
    if (!this.values.length) return [];
    const allowed = options.datasourceIds ? new Set(options.datasourceIds) : null;
    const qWords = normaliseText(question).split(' ').filter(Boolean);
    const choices = qWords.map((w) => this.choose(w));
    const best = new Map<number, { kind: MatchKind; score: number }>();
    const keep = (id: number, kind: MatchKind, score: number) => {
      const v = this.values[id];
      if (!v || (allowed && !allowed.has(v.datasourceId))) return;
      const had = best.get(id);
      if (!had || had.score < score) best.set(id, { kind, score });
    };

    // Whole values: every phrase of up to MAX_SPAN words, each word as written or corrected.
    for (let i = 0; i < choices.length; i++) {
      let text = '';
      let weight = 1;
      for (let j = i; j < Math.min(choices.length, i + MAX_SPAN); j++) {
        const c = choices[j];
        if (!c) break;
        text = text ? `${text} ${c.word}` : c.word;
        weight = Math.min(weight, c.weight);
        // One function word alone ("a", "the", "no") is never a value the question names.
        if (i === j && (STOPWORDS.has(c.word) || c.word.length < 2)) continue;
        for (const id of this.byText.get(text) ?? []) keep(id, weight === 1 ? 'exact' : 'fuzzy', weight);
        for (const id of this.byCompact.get(text.replace(/ /g, '')) ?? [])
          keep(id, 'fuzzy', COMPACT_WEIGHT * weight);
      }
    }

    // Short values most of whose words the question has.
    const present = new Map<string, number>();
    for (const c of choices) {
      if (c && !STOPWORDS.has(c.word) && c.word.length >= 3) present.set(c.word, c.weight);
    }
    const cover = new Map<number, { words: number; weight: number }>();
    for (const [w, weight] of present) {
      const ids = this.byWord.get(w);
      if (!ids || ids.length > PARTIAL_POSTINGS_MAX) continue;
      for (const id of ids) {
        const had = cover.get(id) ?? { words: 0, weight: 1 };
        cover.set(id, { words: had.words + 1, weight: Math.min(had.weight, weight) });
      }
    }
    for (const [id, c] of cover) {
      const share = c.words / Math.max(1, this.wordCounts[id] ?? 1);
      if (share >= PARTIAL_MIN_COVER && share < 1) keep(id, 'partial', PARTIAL_WEIGHT * share * c.weight);
    }

    const perColumn = options.perColumn ?? 5;
    const counts = new Map<string, number>();
    const out: ValueMatch[] = [];
    const ranked = [...best].sort(
      ([a, x], [b, y]) =>
        y.score - x.score || (this.values[b]?.frequency ?? 0) - (this.values[a]?.frequency ?? 0) || a - b,
    );
    for (const [id, m] of ranked) {
      const v = this.values[id]!;
      const key = columnKey(v.datasourceId, v.table, v.column);
      const n = counts.get(key) ?? 0;
      if (n >= perColumn) continue;
      counts.set(key, n + 1);
      out.push({ ...v, kind: m.kind, score: round(m.score) });
      if (options.limit !== undefined && out.length >= options.limit) break;
    }
    return out;
  }

  /** The word itself when some value has it, else its closest spelling among the values' words. */
  private choose(word: string): WordChoice | null {
    if (this.byWord.has(word)) return { word, weight: 1 };
    if (word.length < 4 || /^\d+$/.test(word) || STOPWORDS.has(word)) return null;
    const maxEdits = word.length >= 8 ? 2 : 1;
    const own = grams(word);
    // Strings within d edits share at least (grams - 3d) trigrams (the q-gram lemma).
    const needed = Math.max(1, own.length - 3 * maxEdits);
    const shared = new Map<string, number>();
    for (const g of own) {
      for (const w of this.byGram.get(g) ?? []) shared.set(w, (shared.get(w) ?? 0) + 1);
    }
    let found: WordChoice | null = null;
    let foundEdits = Infinity;
    for (const [w, n] of shared) {
      if (n < needed || Math.abs(w.length - word.length) > maxEdits) continue;
      const d = distance(w, word);
      if (d > maxEdits || d > foundEdits) continue;
      // Ties go to the word in more values: the more common spelling is the likelier meant.
      if (
        d === foundEdits &&
        found &&
        (this.byWord.get(w)?.length ?? 0) <= (this.byWord.get(found.word)?.length ?? 0)
      )
        continue;
      found = { word: w, weight: FUZZY_WEIGHT[d] ?? 0.8 };
      foundEdits = d;
    }
    return found;
  }
}

function columnKey(datasourceId: string, table: string, column: string): string {
  return `${datasourceId}\u0000${table}\u0000${column}`;
}

function grams(word: string): string[] {
  const padded = `^${word}$`;
  const out: string[] = [];
  for (let i = 0; i + 3 <= padded.length; i++) out.push(padded.slice(i, i + 3));
  return out;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
