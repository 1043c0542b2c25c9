/**
 * How stored values and question words meet: accents folded, case dropped, punctuation read as a
 * space. "São Paulo", "sao paulo" and "SAO-PAULO" are the same key. Numbers and dates are not
 * values to index: the model copies them from the question, and a stored number says nothing
 * about where a question belongs.
 */

/** Longest value the index keeps (longer texts are descriptions, not values a question names). */
export const MAX_VALUE_CHARS = 100;

export function normaliseText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** normaliseText without the lower-casing: "AL" and "Al" stay apart. */
export function normaliseKeepingCase(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * A question's words folded (as the index keys them) and, at the same positions, as written. Where
 * lower-casing changes the words themselves (a rare letter that lower-cases to two), the written
 * form is the folded one.
 */
export function questionWords(text: string): { folded: string[]; written: string[] } {
  const n = normaliseText(text);
  const folded = n ? n.split(' ') : [];
  const kept = normaliseKeepingCase(text);
  const written = kept.toLowerCase() === n && kept ? kept.split(' ') : folded;
  return { folded, written };
}

export function words(text: string): string[] {
  const n = normaliseText(text);
  return n ? n.split(' ') : [];
}

const NUMBER = /^[-+]?[\d.,\s]*\d[\d.,\s]*%?$/;
const DATE_OR_TIME = /^(\d{4}-\d{1,2}(-\d{1,2})?|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{1,2}:\d{2})([ T].*)?$/;

/** A stored text that a question could name: short, with a letter, not a number or a date. */
export function isIndexableValue(value: string): boolean {
  const v = value.trim();
  if (!v || v.length > MAX_VALUE_CHARS) return false;
  if (NUMBER.test(v) || DATE_OR_TIME.test(v)) return false;
  return /\p{L}/u.test(v);
}
