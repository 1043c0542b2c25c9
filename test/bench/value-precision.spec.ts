/** The prompts bench's value precision: when a value shown as matched counts as one the question names. */
import { isPreciseMatch, questionNames } from '../../bench/prompts/value-precision';

it('counts a value the gold SQL uses, whatever the question says', () => {
  expect(isPreciseMatch('Which Japanese makers are there?', 'Japan', ['Japan'])).toBe(true);
  // Case, accents and punctuation are folded; a LIKE pattern counts without its wildcards.
  expect(isPreciseMatch('cities in sao paulo state', 'São Paulo', ['sao paulo'])).toBe(true);
  expect(isPreciseMatch('titles about war', 'War', ['%War%'])).toBe(true);
  expect(isPreciseMatch('Which Japanese makers are there?', 'Japan', ['Germany'])).toBe(false);
});

it('counts a value whose words the question has, in any number, or joined', () => {
  expect(questionNames('How many Nordic countries are there?', 'Nordic Countries')).toBe(true);
  expect(questionNames('addresses in North Carolina', 'NorthCarolina')).toBe(true);
  expect(questionNames('singers from the united-states', 'United States')).toBe(true);
  // One word of two is not naming it.
  expect(questionNames('How many countries are there?', 'Nordic Countries')).toBe(false);
  expect(questionNames('cities of North America', 'North Korea')).toBe(false);
  expect(questionNames('who is the oldest?', '')).toBe(false);
});
