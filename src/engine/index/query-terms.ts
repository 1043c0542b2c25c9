/**
 * A question's terms and, for each, the index terms it may stand for, with a confidence weight:
 * the term itself, an abbreviation's long form, the base of a comparative or superlative
 * ("oldest" -> old), a derivation sharing its stem ("nationality" ~ nation), and the terms the
 * lexicon relates to it ("oldest" ~ age). Adjacent words also try their joined form ("home town"
 * -> hometown). Only terms that occur in the index are kept, so the rest cost nothing.
 */
import { lexicon } from './text/lexicon';
import { splitWords, stem, STOPWORDS } from './text/tokens';

export interface QueryTerm {
  readonly word: string;
  /** Index term -> weight in (0, 1]. */
  readonly alternatives: ReadonlyMap<string, number>;
}

const RELATED = 0.6;
const DERIVED = 0.75;
const DEGREE = 0.9;
const YEAR = 0.8;
/** Endings that derive one word from another while keeping its meaning close. */
const DERIVATIONS = [
  'ality',
  'ity',
  'al',
  'ation',
  'ion',
  'ian',
  'an',
  'ese',
  'ish',
  'er',
  'or',
  'r',
  'ist',
  'ic',
  'ical',
  'ment',
  'ness',
  'ship',
  'ive',
  'ful',
  'ous',
  'ure',
  'ee',
  'e',
  'y',
  'ly',
  'hood',
  'dom',
];

/** Candidates for the base of a comparative or superlative: older -> old, largest -> large, busiest -> busy. */
function degreeBases(t: string): string[] {
  const out: string[] = [];
  for (const suffix of ['est', 'er']) {
    if (!t.endsWith(suffix) || t.length < suffix.length + 3) continue;
    const base = t.slice(0, -suffix.length);
    out.push(base, `${base}e`);
    if (base.endsWith('i')) out.push(`${base.slice(0, -1)}y`);
    if (base.length > 3 && base[base.length - 1] === base[base.length - 2]) out.push(base.slice(0, -1));
  }
  return out;
}

export class QueryAnalyser {
  /** Index terms by their first four letters, for derivation look-ups. */
  private readonly byPrefix = new Map<string, string[]>();

  constructor(private readonly vocabulary: ReadonlySet<string>) {
    for (const term of vocabulary) {
      if (term.length < 4) continue;
      const p = term.slice(0, 4);
      let list = this.byPrefix.get(p);
      if (!list) this.byPrefix.set(p, (list = []));
      list.push(term);
    }
  }

  analyse(question: string): QueryTerm[] {
    const words = splitWords(question).filter((w) => !STOPWORDS.has(w));
    const out: QueryTerm[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < words.length; i++) {
      const word = words[i] ?? '';
      const t = stem(word);
      if (!seen.has(t)) {
        seen.add(t);
        const alternatives = this.alternatives(t);
        if (alternatives.size) out.push({ word, alternatives });
      }
      // A year ("in 1974", "after 2010") asks about a year or date column.
      if (/^(1[5-9]|20)\d\d$/.test(word) && !seen.has('#year')) {
        seen.add('#year');
        const alternatives = new Map<string, number>();
        for (const [term, w] of [
          ['year', YEAR],
          ['date', YEAR * 0.8],
        ] as const)
          if (this.vocabulary.has(term)) alternatives.set(term, w);
        if (alternatives.size) out.push({ word, alternatives });
      }
      const next = words[i + 1];
      if (next !== undefined) {
        const joined = stem(word + next);
        if (this.vocabulary.has(joined) && !seen.has(joined)) {
          seen.add(joined);
          out.push({ word: `${word}${next}`, alternatives: new Map([[joined, 1]]) });
        }
      }
    }
    return out;
  }

  private alternatives(t: string): Map<string, number> {
    const lex = lexicon();
    const alts = new Map<string, number>();
    const add = (term: string, weight: number) => {
      if (!this.vocabulary.has(term)) return;
      if ((alts.get(term) ?? 0) < weight) alts.set(term, weight);
    };
    const heads = new Map<string, number>([[t, 1]]);
    const full = lex.expand(t);
    if (full) heads.set(full, 1);
    for (const base of degreeBases(t)) {
      if (this.vocabulary.has(base) || lex.related(base).length)
        heads.set(base, Math.max(heads.get(base) ?? 0, DEGREE));
    }
    for (const [head, w] of heads) {
      add(head, w);
      for (const r of lex.related(head)) add(r, w * RELATED);
      for (const d of this.derivations(head)) add(d, w * DERIVED);
    }
    return alts;
  }

  /** Index terms that are `t` plus a derivational ending, or that `t` extends by one. */
  private derivations(t: string): string[] {
    if (t.length < 4) return [];
    const out: string[] = [];
    for (const candidate of this.byPrefix.get(t.slice(0, 4)) ?? []) {
      if (candidate === t) continue;
      const [short, long] = candidate.length < t.length ? [candidate, t] : [t, candidate];
      if (
        short.length < 4 ||
        !long.startsWith(short.endsWith('e') || short.endsWith('y') ? short.slice(0, -1) : short)
      )
        continue;
      const stemOfShort = short.endsWith('e') || short.endsWith('y') ? short.slice(0, -1) : short;
      const ending = long.startsWith(short) ? long.slice(short.length) : long.slice(stemOfShort.length);
      if (DERIVATIONS.includes(ending)) out.push(candidate);
    }
    return out;
  }
}
