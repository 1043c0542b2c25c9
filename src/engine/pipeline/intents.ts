/**
 * Whether a question may ask several things at once, decided without a model. Generous on
 * purpose: a false "maybe" costs one decomposer call, a false "no" would answer half a question.
 * Signs: more than one question mark or sentence, a clause joined by and/also/then that starts a
 * new request (a question word or an imperative), or a list of requests separated by semicolons.
 */
const QUESTION_WORDS =
  'what|which|who|whom|whose|how|when|where|why|list|show|give|count|find|name|tell|compare|return|plot';

const JOINED_REQUEST = new RegExp(
  `(?:,|;|\\b(?:and|also|then|plus|as well as)\\b)\\s*(?:also\\s+|then\\s+)?(?:${QUESTION_WORDS})\\b`,
  'i',
);

export function mayHaveSeveralIntents(question: string): boolean {
  const q = question.trim();
  if ((q.match(/\?/g) ?? []).length > 1) return true;
  // Two sentences: "Show X. Then list Y."
  if (/[.!?]\s+\p{Lu}/u.test(q)) return true;
  if (q.includes(';')) return true;
  return JOINED_REQUEST.test(q);
}
