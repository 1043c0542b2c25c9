/** The value index: a question's words and phrases find stored values through case, accents and typos. */
import { ValueIndex, type StoredValue } from '../../../src/engine/index/values/value-index';
import { isIndexableValue } from '../../../src/engine/index/values/normalise';

const v = (
  datasourceId: string,
  table: string,
  column: string,
  value: string,
  frequency = 1,
): StoredValue => ({
  datasourceId,
  table,
  column,
  value,
  frequency,
});

const values = new ValueIndex([
  v('geo', 'singer', 'country', 'France', 4),
  v('geo', 'singer', 'country', 'Netherlands', 2),
  v('geo', 'singer', 'country', 'United States', 9),
  v('geo', 'city', 'name', 'São Paulo'),
  v('geo', 'city', 'province', 'Gelderland'),
  v('school', 'highschooler', 'name', 'Kyle Smith'),
  v('school', 'highschooler', 'name', 'Jordan'),
  v('school', 'course', 'title', 'The Art of War'),
  v('cars', 'maker', 'country', 'france'),
]);

const found = (question: string, datasourceIds?: string[]) =>
  values
    .lookup(question, { datasourceIds })
    .map((m) => `${m.datasourceId}.${m.table}.${m.column}=${m.value}:${m.kind}`);

it('finds a value whatever its case, spelled as stored', () => {
  expect(found('Which singers are from france?', ['geo'])).toEqual(['geo.singer.country=France:exact']);
  // Both spellings where both are stored, each in its own datasource.
  expect(found('Which singers are from FRANCE?')).toEqual(
    expect.arrayContaining(['geo.singer.country=France:exact', 'cars.maker.country=france:exact']),
  );
});

it('finds multi-word values and folds accents and punctuation', () => {
  expect(found('How many cities named sao paulo are there?')).toContain('geo.city.name=São Paulo:exact');
  expect(found('singers from the united-states')).toContain('geo.singer.country=United States:exact');
});

it('survives small misspellings, and says the match is corrected', () => {
  const m = values.lookup('cities in the province of Gelderlnd');
  expect(m[0]).toMatchObject({ value: 'Gelderland', kind: 'corrected', phrase: 'gelderlnd' });
  expect(m[0]!.score).toBeLessThan(1);
  expect(found('singers from Netherlnds')).toContain('geo.singer.country=Netherlands:corrected');
  // Too far from anything stored: no guess.
  expect(found('singers from Narnia')).toEqual([]);
});

it('finds a short value most of whose words the question names', () => {
  const m = values.lookup('What grade is the student named Kyle in?');
  expect(m.map((x) => x.value)).toContain('Kyle Smith');
  expect(m.find((x) => x.value === 'Kyle Smith')?.kind).toBe('partial');
});

it('never takes a function word alone for a value, nor numbers and dates for values', () => {
  expect(found('Who wrote the art of war?')).toEqual(['school.course.title=The Art of War:exact']);
  expect(isIndexableValue('1974')).toBe(false);
  expect(isIndexableValue('2024-01-02')).toBe(false);
  expect(isIndexableValue('12.5%')).toBe(false);
  expect(isIndexableValue('A320')).toBe(true);
  expect(isIndexableValue('x'.repeat(101))).toBe(false);
});

it('keeps to the datasources asked and ranks exact matches first', () => {
  expect(found('singers from france', ['cars'])).toEqual(['cars.maker.country=france:exact']);
  const m = values.lookup('jordan from franse');
  expect(m.map((x) => x.kind)).toEqual(['exact', 'corrected', 'corrected']);
});

it('knows the most frequent values of a column', () => {
  expect(values.typical('geo', 'singer', 'country', 2)).toEqual(['United States', 'France']);
  expect(values.typical('geo', 'singer', 'nope', 2)).toEqual([]);
  expect(values.isUnique('geo', 'singer', 'country')).toBe(false);
  expect(values.isUnique('school', 'highschooler', 'name')).toBe(true);
  // One value, or a column not indexed, says nothing of uniqueness.
  expect(values.isUnique('geo', 'city', 'name')).toBe(false);
  expect(values.isUnique('geo', 'singer', 'nope')).toBe(false);
});
