/**
 * The value index in memory: the distinct text values of every indexed column, looked up by the
 * words and phrases of a question. Five kinds of match, best first:
 *   - exact: a phrase of the question is a stored value once case, accents and punctuation are
 *     dropped ("france" -> "France", "sao paulo" -> "São Paulo");
 *   - joined: the same with the words joined or split differently ("North Carolina" ->
 *     "NorthCarolina", "APP000022" -> "APP-000022");
 *   - corrected: the same after correcting a misspelt word to a word some value contains
 *     ("Gelderlnd" -> "Gelderland"; edit distance 1, or 2 for long words, found through trigrams);
 *   - derived: a word of the question is made from the value ("Japanese" -> "Japan", "French" ->
 *     "France"; derived.ts);
 *   - partial: some of a short value's words, as a phrase of the question ("Kyle" -> "Kyle Smith").
 * Precision before recall, because a shown match pushes a model to filter on it:
 *   - a match must cover a phrase that is not just stop words, nor, unless it spells the value out
 *     whole (status 'shipped', column shipped_at), schema words (the datasource's table and column
 *     names, singular or plural): "countries" never finds 'Nordic Countries'; a function word in
 *     capitals is an abbreviation ("US");
 *   - a schema word or a common English word is never corrected ("name" is not 'Nama', "across"
 *     not 'Cross'), and a partial match stands on words as written ("last" is not 'East Ila');
 *   - a partial match's words must name the value there: not words several values of the column
 *     share ('Airlines', 'Museum'), and not beside a word of the question that another value holds or that
 *     is part of a name ("North America" is not 'North Korea');
 *   - corrected, derived and partial matches of words that one exact or joined match already
 *     covers are dropped: for "republic", 'Republic' and not 'Federal Republic';
 *   - a short code ('AL') is not matched by a word written in other capitals ("Al").
 * Built once per load from the store's rows (like the retriever), so a lookup costs no round trip.
 */
import { distance } from 'fastest-levenshtein';
import { splitWords, stem, STOPWORDS } from '../text/tokens';
import { isCommonWord, isNameWord } from './common-words';
import { derivedNames, MAX_DERIVED_WORDS } from './derived';
import { normaliseKeepingCase, normaliseText, questionWords } from './normalise';

/** One distinct value of one column, as the store keeps it. */
export interface StoredValue {
  readonly datasourceId: string;
  readonly table: string;
  readonly column: string;
  readonly value: string;
  /** Rows holding the value in what was scanned. */
  readonly frequency: number;
}

export type MatchKind = 'exact' | 'joined' | 'corrected' | 'derived' | 'partial';

export interface ValueMatch {
  readonly datasourceId: string;
  readonly table: string;
  readonly column: string;
  /** Spelled as stored. */
  readonly value: string;
  readonly kind: MatchKind;
  /** 1 for an exact match, lower for the other kinds. */
  readonly score: number;
  readonly frequency: number;
  /** The question's words the match covers, folded and as the question has them (not corrected). */
  readonly phrase: string;
}

export interface LookupOptions {
  /** Only values of these datasources; all when absent. */
  readonly datasourceIds?: readonly string[];
  /** At most this many matches (best first). */
  readonly limit?: number;
  /** At most this many matches per column. */
  readonly perColumn?: number;
}

export interface ValueIndexOptions {
  /**
   * Per datasource, its table and column names: their words are schema words, which alone never
   * find a value. The names of the indexed columns and their tables count without being listed.
   */
  readonly schemaNames?: ReadonlyMap<string, readonly string[]>;
}

/** Longest phrase of the question tried as a whole value, in words. */
const MAX_SPAN = 6;
/** A word in more values than this is too common to find values by (partial matches). */
const PARTIAL_POSTINGS_MAX = 400;
/** Words this many values of a column hold name a kind of thing there, not one value ('... Airlines'). */
const COLUMN_SHARED = 3;
const PARTIAL_WEIGHT = 0.7;
const PARTIAL_MIN_COVER = 0.5;
const FUZZY_WEIGHT = [1, 0.9, 0.8] as const;
/** The question joins or splits the words of a value differently ("APP000022", "home town"). */
const JOINED_WEIGHT = 0.95;
const DERIVED_WEIGHT = 0.85;
/** Values this short (folded) are codes: a word written in other capitals names something else. */
const CODE_CHARS = 3;

interface WordChoice {
  readonly word: string;
  readonly weight: number;
}

/** A question's words: folded, as written, and stemmed (for schema words). */
interface Question {
  readonly folded: string[];
  readonly written: string[];
  readonly stems: string[];
  /** Function words: never a value alone. */
  readonly stop: boolean[];
}

/** A match found, before the precision rules: which question words it covers and which were corrected. */
interface Candidate {
  readonly id: number;
  readonly kind: MatchKind;
  readonly score: number;
  readonly positions: readonly number[];
  readonly corrected: readonly number[];
}

/** Exact and joined matches cover words for good; the other kinds give way to them. */
const WHOLE: ReadonlySet<MatchKind> = new Set(['exact', 'joined']);

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
  /** Value id -> number of its column (order of first appearance). */
  private readonly columnOf: Uint32Array;
  /** Datasource -> stems of its table and column names' words. */
  private readonly schemaWords = new Map<string, Set<string>>();

  constructor(values: readonly StoredValue[], options: ValueIndexOptions = {}) {
    this.values = values;
    this.wordCounts = new Uint16Array(values.length);
    this.columnOf = new Uint32Array(values.length);
    const columnNumbers = new Map<string, number>();
    values.forEach((v, id) => {
      const colKey = columnKey(v.datasourceId, v.table, v.column);
      push(this.byColumn, colKey, id);
      let n = columnNumbers.get(colKey);
      if (n === undefined) columnNumbers.set(colKey, (n = columnNumbers.size));
      this.columnOf[id] = n;
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
    const addNames = (ds: string, names: Iterable<string>) => {
      let set = this.schemaWords.get(ds);
      if (!set) this.schemaWords.set(ds, (set = new Set()));
      for (const name of names) for (const w of splitWords(name)) set.add(stem(w));
    };
    for (const ids of this.byColumn.values()) {
      const v = values[ids[0]!]!;
      addNames(v.datasourceId, [v.table.slice(v.table.lastIndexOf('.') + 1), v.column]);
    }
    for (const [ds, names] of options.schemaNames ?? []) addNames(ds, names);
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
    const words = questionWords(question);
    // A function word in capitals in a question that is not all capitals is an abbreviation ("US", "IT").
    const shouting = !/\p{Ll}/u.test(question);
    const stop = words.folded.map(
      (w, i) => STOPWORDS.has(w) && (shouting || !/^\p{Lu}{2,}$/u.test(words.written[i] ?? '')),
    );
    const q: Question = { ...words, stems: words.folded.map(stem), stop };
    // A word no value holds and none corrects stays as written: a value may hold it joined to the next.
    const choices = q.folded.map((w) => this.choose(w) ?? { word: w, weight: 1 });
    const found: Candidate[] = [];
    const add = (
      ids: readonly number[] | undefined,
      kind: MatchKind,
      score: number,
      positions: readonly number[],
      corrected: readonly number[],
    ) => {
      for (const id of ids ?? []) {
        const v = this.values[id];
        if (v && (!allowed || allowed.has(v.datasourceId)))
          found.push({ id, kind, score, positions, corrected });
      }
    };

    // Whole values: every phrase of up to MAX_SPAN words, each word as written or corrected, and
    // the phrase with its words joined.
    for (let i = 0; i < choices.length; i++) {
      let text = '';
      let weight = 1;
      const corrected: number[] = [];
      for (let j = i; j < Math.min(choices.length, i + MAX_SPAN); j++) {
        const c = choices[j]!;
        text = text ? `${text} ${c.word}` : c.word;
        weight = Math.min(weight, c.weight);
        if (c.weight < 1) corrected.push(j);
        // One function word alone ("a", "the", "no") is never a value the question names.
        if (i === j && (q.stop[i] || c.word.length < 2)) continue;
        const compact = text.replace(/ /g, '');
        const exact = this.byText.get(text);
        const joined = j > i ? this.byText.get(compact) : undefined;
        const split = this.byCompact.get(compact);
        if (!exact && !joined && !split) continue;
        const positions = range(i, j + 1);
        const fixed = [...corrected];
        const joinedKind = fixed.length ? 'corrected' : 'joined';
        add(exact, fixed.length ? 'corrected' : 'exact', weight, positions, fixed);
        add(joined, joinedKind, JOINED_WEIGHT * weight, positions, fixed);
        add(split, joinedKind, JOINED_WEIGHT * weight, positions, fixed);
      }
    }

    // Derived forms: a word or short phrase of the question made from the value.
    for (let i = 0; i < q.folded.length; i++) {
      let phrase = '';
      for (let j = i; j < Math.min(q.folded.length, i + MAX_DERIVED_WORDS); j++) {
        phrase = phrase ? `${phrase} ${q.folded[j]}` : q.folded[j]!;
        if (i === j && (q.stop[i] || phrase.length < 2 || /^\d+$/.test(phrase))) continue;
        for (const name of derivedNames(phrase))
          add(this.byText.get(name), 'derived', DERIVED_WEIGHT, range(i, j + 1), []);
      }
    }

    // Short values some of whose words the question has, as written (never corrected).
    const present = new Map<string, number[]>();
    q.folded.forEach((w, i) => {
      if (choices[i]!.weight < 1 || q.stop[i] || w.length < 3 || /^\d+$/.test(w)) return;
      push(present, w, i);
    });
    const cover = new Map<number, { words: string[]; positions: number[] }>();
    for (const [w, positions] of present) {
      const ids = this.byWord.get(w);
      if (!ids || ids.length > PARTIAL_POSTINGS_MAX) continue;
      const stemmed = stem(w);
      for (const id of ids) {
        if (this.isSchemaStem(this.values[id]!.datasourceId, stemmed)) continue;
        let c = cover.get(id);
        if (!c) cover.set(id, (c = { words: [], positions: [] }));
        c.words.push(w);
        c.positions.push(...positions);
      }
    }
    // Per column and words covered: how many of the column's values hold all those words.
    const holding = new Map<string, number>();
    for (const [id, c] of cover) {
      const share = c.words.length / Math.max(1, this.wordCounts[id] ?? 1);
      if (share < PARTIAL_MIN_COVER) continue;
      const column = this.columnOf[id]!;
      const key = `${column}\u0000${c.words.join(' ')}`;
      let n = holding.get(key);
      if (n === undefined) holding.set(key, (n = this.valuesHoldingAll(column, c.words)));
      // Words several values of the column hold name their kind there ('... Airlines'), not one value.
      if (n >= COLUMN_SHARED) continue;
      if (this.namesSomethingElse(id, c.positions, q)) continue;
      add(
        [id],
        'partial',
        PARTIAL_WEIGHT * Math.min(1, share),
        c.positions.sort((a, b) => a - b),
        [],
      );
    }

    return this.rank(this.precise(found, q), q.folded, options);
  }

  /** The precision rules that need the candidate's datasource (see the head of this file). */
  private precise(found: readonly Candidate[], q: Question): Candidate[] {
    const kept = found.filter((c) => {
      const v = this.values[c.id]!;
      const ds = v.datasourceId;
      // A value spelled out whole may be a schema word too (status 'shipped', column shipped_at).
      const content = c.positions.some(
        (p) => !q.stop[p] && (WHOLE.has(c.kind) || !this.isSchemaStem(ds, q.stems[p]!)),
      );
      if (!content) return false;
      if (c.corrected.some((p) => this.isSchemaStem(ds, q.stems[p]!))) return false;
      return !this.otherCapitals(v.value, c.positions, q);
    });
    // Exact and joined matches, per datasource and per column.
    const wholeByDatasource = new Map<string, Candidate[]>();
    const wholeByColumn = new Map<string, Candidate[]>();
    for (const c of kept) {
      if (!WHOLE.has(c.kind)) continue;
      const v = this.values[c.id]!;
      push(wholeByDatasource, v.datasourceId, c);
      push(wholeByColumn, columnKey(v.datasourceId, v.table, v.column), c);
    }
    const covers = (other: Candidate, c: Candidate) => c.positions.every((p) => other.positions.includes(p));
    return kept.filter((c) => {
      const v = this.values[c.id]!;
      if (WHOLE.has(c.kind)) {
        // In one column the longest: 'Federal Republic' for "federal republic", not 'Republic' too.
        const same = wholeByColumn.get(columnKey(v.datasourceId, v.table, v.column)) ?? [];
        return !same.some((other) => other.positions.length > c.positions.length && covers(other, c));
      }
      // A weaker match of words that one exact or joined match covers gives way to it.
      return !(wholeByDatasource.get(v.datasourceId) ?? []).some((other) => covers(other, c));
    });
  }

  /** Best candidate per value, best values first, at most `perColumn` per column and `limit` in all. */
  private rank(found: readonly Candidate[], words: readonly string[], options: LookupOptions): ValueMatch[] {
    const best = new Map<number, Candidate>();
    for (const c of found) {
      const had = best.get(c.id);
      if (!had || had.score < c.score) best.set(c.id, c);
    }
    const perColumn = options.perColumn ?? 5;
    const counts = new Map<string, number>();
    const out: ValueMatch[] = [];
    const ranked = [...best.values()].sort(
      (x, y) =>
        y.score - x.score ||
        (this.values[y.id]?.frequency ?? 0) - (this.values[x.id]?.frequency ?? 0) ||
        x.id - y.id,
    );
    for (const c of ranked) {
      const v = this.values[c.id]!;
      const key = columnKey(v.datasourceId, v.table, v.column);
      const n = counts.get(key) ?? 0;
      if (n >= perColumn) continue;
      counts.set(key, n + 1);
      const phrase = [...new Set(c.positions)].map((p) => words[p]).join(' ');
      out.push({ ...v, kind: c.kind, score: round(c.score), phrase });
      if (options.limit !== undefined && out.length >= options.limit) break;
    }
    return out;
  }

  /** The word itself when some value has it, else its closest spelling among the values' words. */
  private choose(word: string): WordChoice | null {
    if (this.byWord.has(word)) return { word, weight: 1 };
    if (word.length < 4 || /^\d+$/.test(word) || STOPWORDS.has(word) || isCommonWord(word)) return null;
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

  /** A word (by its stem) of the datasource's table or column names, singular or plural. */
  private isSchemaStem(datasourceId: string, stemmed: string): boolean {
    return this.schemaWords.get(datasourceId)?.has(stemmed) ?? false;
  }

  /** Values of a column (by number) holding every one of the words. */
  private valuesHoldingAll(column: number, words: readonly string[]): number {
    let ids: number[] | null = null;
    for (const w of words) {
      const inColumn = new Set((this.byWord.get(w) ?? []).filter((id) => this.columnOf[id] === column));
      ids = ids === null ? [...inColumn] : ids.filter((id) => inColumn.has(id));
      if (!ids.length) return 0;
    }
    return ids?.length ?? 0;
  }

  /** Some value of the datasource has the word. */
  private holdsWord(datasourceId: string, word: string): boolean {
    return this.byWord.get(word)?.some((id) => this.values[id]?.datasourceId === datasourceId) ?? false;
  }

  /**
   * A partial match whose question words stand beside a word that is not the value's but belongs to
   * the same name: a word some other stored value holds, a word English writes with a capital, or
   * one capitalised like them mid-question ("North America" names no 'North Korea').
   */
  private namesSomethingElse(id: number, positions: readonly number[], q: Question): boolean {
    const v = this.values[id]!;
    const own = new Set(normaliseText(v.value).split(' '));
    const covered = new Set(positions);
    for (const p of covered) {
      for (const n of [p - 1, p + 1]) {
        const w = q.folded[n];
        if (w === undefined || covered.has(n) || own.has(w)) continue;
        if (q.stop[n] || /^\d+$/.test(w) || this.isSchemaStem(v.datasourceId, q.stems[n]!)) continue;
        if (this.holdsWord(v.datasourceId, w) || isNameWord(w)) return true;
        if (n > 0 && isCapitalised(q.written[n]!) && isCapitalised(q.written[p]!)) return true;
      }
    }
    return false;
  }

  /** A short code matched by one word written in other capitals: "Al" is a name, 'AL' a state. */
  private otherCapitals(value: string, positions: readonly number[], q: Question): boolean {
    if (positions.length !== 1) return false;
    const stored = normaliseKeepingCase(value);
    const p = positions[0]!;
    if (stored.length > CODE_CHARS || stored.toLowerCase() !== q.folded[p]) return false;
    const asked = q.written[p] ?? '';
    const mixed = /\p{Lu}/u.test(asked) && /\p{Ll}/u.test(asked);
    return mixed && asked !== stored;
  }
}

function isCapitalised(word: string): boolean {
  return /^\p{Lu}/u.test(word);
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
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
