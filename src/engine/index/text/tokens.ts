/**
 * Turning identifiers, values and questions into comparable terms. Schema names are written in
 * snake_case, camelCase, with digits and abbreviations; questions in plain English. Both sides go
 * through the same splitting, lower-casing and light stemming so that `FlightNo`, `flight_number`
 * and "flights" meet on the same terms.
 */

/** Splits on anything that is not a letter or digit, then on camelCase and letter/digit seams. */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  for (const chunk of text.split(/[^\p{L}\p{N}]+/u)) {
    if (!chunk) continue;
    const parts = chunk
      .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
      .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
      .replace(/(\p{L})(\p{N})/gu, '$1 $2')
      .replace(/(\p{N})(\p{L})/gu, '$1 $2')
      .split(' ');
    for (const p of parts) if (p) out.push(p.toLowerCase());
  }
  return out;
}

/**
 * Words that carry no schema meaning in a question (function words, question framing). A general
 * English list: it must not name things a schema could hold.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the of in on at to for from by with without about into onto over under as is are was were be been being ' +
    'do does did done has have had having this that these those there here it its they them their theirs he she ' +
    'his her him we us our you your i me my mine and or but not no nor so than then also too very just only ' +
    'what which who whom whose when where why how all any both each every some such other another same ' +
    'can could should would will shall may might must please show list give find tell return display get ' +
    'many much more most less least one ones s t whether if else per among between through during before after ' +
    'out up down off again further once whose whats let lets including include includes included either neither ' +
    'them themselves itself yourself ourselves respectively corresponding correspond along together'
  ).split(' '),
);

const VOWEL = /[aeiouy]/;

/**
 * A light suffix stemmer (plural and verb endings). Comparatives and superlatives are left alone:
 * "-er" ends too many nouns (owner, number, player); the retriever tries those reductions only when
 * the shorter word is a term it knows.
 */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length <= 3 || /^\d+$/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) w = w.slice(0, -3) + 'y';
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (/(xes|ches|shes|zes)$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is|ous)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 5 && VOWEL.test(w.slice(0, -3))) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ied') && w.length > 4) w = w.slice(0, -3) + 'y';
  else if (w.endsWith('ed') && w.length > 4 && VOWEL.test(w.slice(0, -2)) && !w.endsWith('eed'))
    w = undouble(w.slice(0, -2));
  return w;
}

function undouble(w: string): string {
  if (w.length > 3 && w[w.length - 1] === w[w.length - 2] && !/[lsz]/.test(w[w.length - 1] ?? ''))
    return w.slice(0, -1);
  return w;
}

/** Terms of a text: split, lower-cased, stemmed, stopwords dropped. Numbers are kept. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const w of splitWords(text)) {
    if (STOPWORDS.has(w)) continue;
    out.push(stem(w));
  }
  return out;
}

/** Character n-grams of a padded word, for spelling and morphology that the stemmer misses. */
export function charNgrams(word: string, n = 3): string[] {
  const padded = `^${word}$`;
  if (padded.length <= n) return [padded];
  const out: string[] = [];
  for (let i = 0; i + n <= padded.length; i++) out.push(padded.slice(i, i + n));
  return out;
}
