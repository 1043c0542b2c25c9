/**
 * Whether a stored value the planner prompt shows as matched (`matches:`) is one the question
 * names. A shown value counts as precise when
 *   - a text literal of the gold SQL is that value (case, accents and punctuation folded; a LIKE
 *     pattern counts with its `%` and `_` wildcards dropped), or
 *   - the question's own words name it: every word of the value is a word of the question (singular
 *     and plural alike, through the index's light stemmer), or the value written without spaces and
 *     punctuation is a run of the question's words written so ("NorthCarolina", "North Carolina").
 * A derived form ('Japan' for "Japanese") is precise only through the gold SQL: the question's
 * words do not spell it, so only the gold query can say it was meant.
 */
import { stem } from '../../src/engine/index/text/tokens';
import { normaliseText, words } from '../../src/engine/index/values/normalise';

export function isPreciseMatch(question: string, value: string, goldLiterals: readonly string[]): boolean {
  const folded = normaliseText(value);
  if (!folded) return false;
  if (goldLiterals.some((g) => normaliseText(g.replace(/[%_]/g, ' ')) === folded)) return true;
  return questionNames(question, value);
}

/** The question's words spell the value: all its words, or its words joined as a run of the question's. */
export function questionNames(question: string, value: string): boolean {
  const q = words(question);
  const v = words(value);
  if (!v.length) return false;
  const stems = new Set(q.map(stem));
  if (v.every((w) => stems.has(stem(w)))) return true;
  const compact = v.join('');
  for (let i = 0; i < q.length; i++) {
    let run = '';
    for (let j = i; j < q.length && run.length < compact.length; j++) {
      run += q[j];
      if (run === compact) return true;
    }
  }
  return false;
}
