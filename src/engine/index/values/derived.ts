/**
 * Derived forms: a question names a stored value through a word made from it, most often a
 * country's or a place's adjective ("Japanese car makers" for 'Japan', "French singers" for
 * 'France', "American airlines" for 'USA'). Two sources, both giving the stored texts to look for
 * (folded as normaliseText folds):
 *   - a rule for the regular adjectives: the question word is a stem of the value plus an adjective
 *     ending, the stem being the value less a short ending (Japan+ese, Chin(a)+ese, Ital(y)+ian,
 *     Korea+n, Mexic(o)+an, Belgi(um)+an, Swed(en)+ish, Engl(and)+ish, Israel+i);
 *   - a short list of the irregular ones and of the common other names of a few countries
 *     ("United States" / 'USA'), which no rule derives.
 */

/** Adjective endings a question word may carry, longest first. */
const ADJECTIVE_ENDINGS = ['ese', 'ian', 'ean', 'ish', 'an', 'n', 'i'] as const;
/** What a value may end with beyond the stem the adjective keeps. */
const VALUE_ENDINGS = ['', 'a', 'e', 'o', 'y', 'ia', 'um', 'ey', 'en', 'and', 'on'] as const;
/** A shorter stem matches too much ("median" is not 'Media'). */
const MIN_STEM = 4;

/**
 * Names that the rule cannot derive: each group is one place, its adjective(s) and the names it is
 * stored under. Kept to the forms that differ from the rule's; a group's every entry leads to the
 * others.
 */
const NAME_GROUPS: readonly (readonly string[])[] = [
  ['united states', 'united states of america', 'usa', 'us', 'u s', 'u s a', 'american', 'americans'],
  ['united kingdom', 'uk', 'u k', 'great britain', 'britain', 'british'],
  ['netherlands', 'the netherlands', 'holland', 'dutch'],
  ['france', 'french'],
  ['spain', 'spanish'],
  ['germany', 'german', 'germans'],
  ['greece', 'greek', 'greeks'],
  ['switzerland', 'swiss'],
  ['denmark', 'danish', 'danes'],
  ['finland', 'finnish', 'finns'],
  ['poland', 'polish', 'poles'],
  ['ireland', 'irish'],
  ['scotland', 'scottish', 'scots'],
  ['wales', 'welsh'],
  ['norway', 'norwegian', 'norwegians'],
  ['portugal', 'portuguese'],
  ['peru', 'peruvian', 'peruvians'],
  ['thailand', 'thai'],
  ['philippines', 'filipino', 'filipinos', 'philippine'],
  ['iceland', 'icelandic'],
  ['new zealand', 'new zealander', 'new zealanders'],
  ['czech republic', 'czechia', 'czech'],
];

const GROUP_OF = new Map<string, readonly string[]>();
for (const group of NAME_GROUPS) for (const name of group) GROUP_OF.set(name, group);

/** Longest question phrase, in words, that the list holds. */
export const MAX_DERIVED_WORDS = Math.max(...NAME_GROUPS.flat().map((n) => n.split(' ').length));

/**
 * The stored texts (folded) a question phrase (folded, words joined by one space) may be derived
 * from: the other names of its group, and for one word the regular stems. Never the phrase itself.
 */
export function derivedNames(phrase: string): string[] {
  const out = new Set<string>(GROUP_OF.get(phrase) ?? []);
  if (!phrase.includes(' ')) {
    for (const ending of ADJECTIVE_ENDINGS) {
      if (!phrase.endsWith(ending)) continue;
      const stem = phrase.slice(0, -ending.length);
      if (stem.length < MIN_STEM) continue;
      for (const tail of VALUE_ENDINGS) out.add(stem + tail);
    }
  }
  out.delete(phrase);
  return [...out];
}
