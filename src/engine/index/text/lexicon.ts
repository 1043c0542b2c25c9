/**
 * The loaded word resource: abbreviation expansions and related terms, both keyed by stemmed term.
 * Loaded once per process (it is small and immutable).
 */
import { ABBREVIATIONS, RELATED_GROUPS } from './lexicon-data';
import { stem } from './tokens';

export interface Lexicon {
  /** What an identifier abbreviation stands for, as a stemmed term (`qty` -> `quantity`). */
  expand(term: string): string | undefined;
  /** Terms related to a stemmed term (never the term itself). */
  related(term: string): readonly string[];
}

function load(): Lexicon {
  const abbreviations = new Map<string, string>();
  for (const [short, long] of Object.entries(ABBREVIATIONS)) {
    const s = stem(short.replace(/_$/, ''));
    if (s !== stem(long)) abbreviations.set(s, stem(long));
  }
  const related = new Map<string, Set<string>>();
  for (const line of RELATED_GROUPS.split('\n')) {
    const group = [...new Set(line.trim().split(/\s+/).filter(Boolean).map(stem))];
    for (const a of group) {
      let set = related.get(a);
      if (!set) related.set(a, (set = new Set()));
      for (const b of group) if (b !== a) set.add(b);
    }
  }
  const frozen = new Map([...related].map(([k, v]) => [k, [...v]]));
  return {
    expand: (term) => abbreviations.get(term),
    related: (term) => frozen.get(term) ?? [],
  };
}

let cached: Lexicon | undefined;

export function lexicon(): Lexicon {
  return (cached ??= load());
}
