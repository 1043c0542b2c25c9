/**
 * Precision of the value index: a shown match pushes a model to filter on it, so a match must cover
 * a phrase the question names. Each case is a miss seen on held-out databases, rebuilt here on
 * small value sets of the same shape.
 */
import { ValueIndex, type StoredValue } from '../../../src/engine/index/values/value-index';

const v = (table: string, column: string, value: string, frequency = 1): StoredValue => ({
  datasourceId: 'world',
  table,
  column,
  value,
  frequency,
});

/** A world atlas and a mailing list: countries, languages, stadiums, addresses. */
const values = new ValueIndex(
  [
    v('country', 'Region', 'Nordic Countries', 5),
    v('country', 'Region', 'Baltic Countries', 3),
    v('country', 'Region', 'Caribbean', 24),
    v('country', 'Continent', 'Europe', 46),
    v('country', 'Continent', 'North America', 37),
    v('country', 'Name', 'North Korea'),
    v('country', 'Name', 'Japan'),
    v('country', 'Name', 'France'),
    v('country', 'Name', 'USA'),
    v('country', 'GovernmentForm', 'Republic', 122),
    v('country', 'GovernmentForm', 'Federal Republic', 15),
    v('country', 'GovernmentForm', 'Socialistic Republic', 3),
    v('country_language', 'Language', 'Philippene Languages'),
    v('country_language', 'Language', 'Nama'),
    v('country_language', 'Language', 'English', 60),
    v('stadium', 'name', 'Bayview Stadium'),
    v('stadium', 'name', 'Balmoor'),
    v('addresses', 'city', 'East Ila'),
    v('addresses', 'city', 'North Omer'),
    v('addresses', 'state_province_county', 'NorthCarolina'),
    v('addresses', 'state_province_county', 'AL'),
    v('addresses', 'state_province_county', 'Kansas'),
  ],
  // Columns with no text values still name the schema.
  { schemaNames: new Map([['world', ['country', 'Population', 'people', 'last_name', 'first_name']]]) },
);

const found = (question: string) =>
  values.lookup(question, { datasourceIds: ['world'] }).map((m) => `${m.column}=${m.value}:${m.kind}`);

it('finds no value through a table or column name alone, singular or plural', () => {
  expect(found('How many countries are there in each region?')).toEqual([]);
  expect(found('What languages does each country speak?')).toEqual([]);
  expect(found('Give the name and population of each country.')).toEqual([]);
  expect(found('List all stadiums by capacity.')).toEqual([]);
  // The same word in a phrase the question names still finds the value.
  expect(found('How many Nordic countries are there?')).toEqual(['Region=Nordic Countries:exact']);
});

it('never corrects a schema word or a common English word into a value', () => {
  // "name" is one edit from 'Nama'; "last" one from 'East', a word of 'East Ila'.
  expect(found('What is the name of the oldest person?')).toEqual([]);
  expect(found('Who has the last name Smith?')).toEqual([]);
  expect(found('Which people moved here last year?')).toEqual([]);
  // A real misspelling of a stored word is still corrected.
  expect(found('addresses in Kanzas')).toEqual(['state_province_county=Kansas:corrected']);
});

it('does not match a short code through a word written in other capitals', () => {
  expect(found('Which addresses belong to Al?')).toEqual([]);
  expect(found('Which addresses are in AL?')).toEqual(['state_province_county=AL:exact']);
  expect(found('which addresses are in al?')).toEqual(['state_province_county=AL:exact']);
});

it('takes a whole phrase over values that share one of its words', () => {
  expect(found('Which countries are in North America?')).toEqual(['Continent=North America:exact']);
  // Not stored as a whole, the phrase still names neither 'North Korea' nor 'North Omer'.
  const noContinent = new ValueIndex([
    v('country', 'Name', 'North Korea'),
    v('addresses', 'city', 'North Omer'),
  ]);
  expect(noContinent.lookup('Which countries are in North America?')).toEqual([]);
  expect(noContinent.lookup('Which countries are in north america?')).toEqual([]);
  // Alone, the shared word may name a value, as a partial match.
  expect(noContinent.lookup('What is the population of North Korea?').map((m) => m.kind)).toEqual(['exact']);
});

it('finds a value stored with its words joined, and ranks it above partial ones', () => {
  const m = values.lookup('How many addresses are in North Carolina?');
  expect(m.map((x) => `${x.value}:${x.kind}:${x.phrase}`)).toEqual(['NorthCarolina:joined:north carolina']);
  expect(found('addresses in north carolina')).toEqual(['state_province_county=NorthCarolina:joined']);
});

it('shows the exact value alone when other values only share its word', () => {
  expect(found('How many countries are a republic?')).toEqual(['GovernmentForm=Republic:exact']);
  // Without the exact value, the two that share the word are partial matches, the more frequent first.
  const partialOnly = new ValueIndex([
    v('country', 'GovernmentForm', 'Socialistic Republic', 3),
    v('country', 'GovernmentForm', 'Federal Republic', 15),
  ]);
  expect(partialOnly.lookup('How many countries are a republic?').map((m) => `${m.value}:${m.kind}`)).toEqual(
    ['Federal Republic:partial', 'Socialistic Republic:partial'],
  );
});

it('finds a value through the adjective made from it, as a derived form', () => {
  expect(values.lookup('How many Japanese car makers are there?')).toEqual([
    expect.objectContaining({ value: 'Japan', kind: 'derived', phrase: 'japanese' }),
  ]);
  expect(found('List the French singers.')).toEqual(['Name=France:derived']);
  expect(found('Which American airlines fly here?')).toEqual(['Name=USA:derived']);
  expect(found('Which European countries are republics?')).toEqual([
    // A plural is one edit from the stored word.
    'GovernmentForm=Republic:corrected',
    'Continent=Europe:derived',
  ]);
  // A word stored as written is an exact match, not a derived one.
  expect(found('Who speaks English?')).toEqual(['Language=English:exact']);
  // A table's name is not an adjective of a value, however it ends.
  const music = new ValueIndex([v('genre', 'name', 'Music')], {
    schemaNames: new Map([['world', ['musician']]]),
  });
  expect(music.lookup('How many musicians are there?')).toEqual([]);
});

it('ranks whole matches first and says which words each covers', () => {
  const m = values.lookup('Are there Caribbean or Baltic Countries with a Federal Republic?');
  expect(m.map((x) => `${x.value}:${x.kind}:${x.phrase}`)).toEqual([
    // Equally good exact matches, the more frequent first.
    'Caribbean:exact:caribbean',
    'Federal Republic:exact:federal republic',
    'Baltic Countries:exact:baltic countries',
  ]);
});

it('takes no partial match through words several values of a column share, unless together they pick one', () => {
  const shop = new ValueIndex([
    v('carrier', 'title', 'American Airlines'),
    v('carrier', 'title', 'Delta Airlines'),
    v('carrier', 'title', 'United Airlines'),
    v('product', 'label', 'Leaf & Kettle Plus Ground Coffee'),
    v('product', 'label', 'Leaf & Kettle Classic Ground Coffee'),
    v('product', 'label', 'Leaf & Kettle Plus Tea'),
    v('product', 'label', 'Leaf & Kettle Plus Whole Beans'),
  ]);
  const partial = (q: string) => shop.lookup(q).map((m) => `${m.value}:${m.kind}`);
  expect(partial('Which airlines fly to Boston?')).toEqual([]);
  expect(partial('How much kettle plus ground coffee was sold?')).toEqual([
    'Leaf & Kettle Plus Ground Coffee:partial',
  ]);
  expect(partial('How much ground coffee was sold?')).toEqual([]);
});

it('takes a value spelled out whole even when a column name has the word, and capitals for abbreviations', () => {
  const orders = new ValueIndex(
    [
      { datasourceId: 'shop', table: 'orders', column: 'status', value: 'shipped', frequency: 9 },
      { datasourceId: 'shop', table: 'stores', column: 'country_code', value: 'US', frequency: 4 },
    ],
    { schemaNames: new Map([['shop', ['orders', 'shipped_at', 'stores']]]) },
  );
  const kinds = (q: string) => orders.lookup(q).map((m) => `${m.value}:${m.kind}`);
  expect(kinds('How many orders were shipped last week?')).toEqual(['shipped:exact']);
  // "us" is a function word, unless the question writes it in capitals.
  expect(kinds('Tell us how many stores there are')).toEqual([]);
  expect(kinds('How many stores are in the US?')).toEqual(['US:exact']);
  expect(kinds('HOW MANY STORES DO US FOLKS RUN?')).toEqual([]);
});
