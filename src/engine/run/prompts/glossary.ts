/**
 * A datasource's glossary as prompts use it: which terms a question names, and how one entry is
 * written. Terms meet the question the way stored values do in the value index (case, accents and
 * punctuation dropped) and the schema index's words do (a light stemmer, so "active customers"
 * names "active customer"); a term of several words is named when its words stand together in
 * the question. An entry whose meaning is a SQL expression is shown as SQL.
 */
import { LRUCache } from 'lru-cache';
import type { Dialect } from '../../datasources/schema';
import { words } from '../../index';
import { stem } from '../../index';
import { isSqlExpression } from '../../plan';

export type Glossary = Readonly<Record<string, string>>;

function terms(text: string): string[] {
  return words(text).map(stem);
}

/**
 * The glossary's terms the question names, in the order it names them (a longer term first
 * where two start at the same word).
 */
export function namedTerms(glossary: Glossary, question: string): string[] {
  const said = terms(question);
  const found: { term: string; at: number; length: number }[] = [];
  for (const term of Object.keys(glossary)) {
    const wanted = terms(term);
    if (!wanted.length) continue;
    const at = indexOfRun(said, wanted);
    if (at >= 0) found.push({ term, at, length: wanted.length });
  }
  return found.sort((a, b) => a.at - b.at || b.length - a.length).map((f) => f.term);
}

function indexOfRun(haystack: readonly string[], run: readonly string[]): number {
  outer: for (let i = 0; i + run.length <= haystack.length; i++) {
    for (let j = 0; j < run.length; j++) if (haystack[i + j] !== run[j]) continue outer;
    return i;
  }
  return -1;
}

/** Parsing a definition is cheap but not free; a glossary's entries recur in every prompt. */
const sqlShape = new LRUCache<string, boolean>({ max: 2000 });

function isSql(meaning: string, dialect: Dialect): boolean {
  const key = `${dialect}\u0000${meaning}`;
  let known = sqlShape.get(key);
  if (known === undefined) sqlShape.set(key, (known = isSqlExpression(meaning, dialect)));
  return known;
}

/** One line: `- term: meaning`, or `- term (SQL expression): meaning` when the meaning is SQL. */
export function glossaryLine(term: string, meaning: string, dialect: Dialect): string {
  const flat = (s: string) => s.replace(/[\s\p{Cc}]+/gu, ' ').trim();
  const m = flat(meaning);
  return isSql(m, dialect) ? `- ${flat(term)} (SQL expression): ${m}` : `- ${flat(term)}: ${m}`;
}
