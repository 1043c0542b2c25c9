/**
 * Whether a question may ask several things at once, decided without a model. Generous on
 * purpose: a false "maybe" costs one decomposer call, a false "no" would answer half a question.
 * Signs: more than one question mark; a second sentence that asks again (a question word) or adds
 * (also, and, then, plus); a clause joined by and/also/then that starts a new request; a semicolon.
 * A second sentence that only says how to show the answer ("List the name and the count.") is
 * not a second intent.
 */
const QUESTION_WORDS =
  'what|which|who|whom|whose|how|when|where|why|list|show|give|count|find|name|tell|compare|return|plot';

const JOINED_REQUEST = new RegExp(
  `\\b(?:and|also|then|plus|as well as)\\b\\s*(?:also\\s+|then\\s+)?(?:${QUESTION_WORDS})\\b`,
  'i',
);

const ASKS_AGAIN = /[.!?]\s+(?:what|which|who|whom|whose|how|when|where|why|also|and|then|plus)\b/i;

export function mayHaveSeveralIntents(question: string): boolean {
  const q = question.trim();
  if ((q.match(/\?/g) ?? []).length > 1) return true;
  if (ASKS_AGAIN.test(q)) return true;
  if (q.includes(';')) return true;
  return JOINED_REQUEST.test(q);
}
