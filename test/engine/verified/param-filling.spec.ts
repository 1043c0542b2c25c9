/** Filling a verified query's parameters from the question alone: typed, and never a guess. */
import type { CheckedVerifiedQuery } from '../../../src/engine/verified/verified-queries';
import {
  combinedLookup,
  fillParams,
  maskValues,
  paramColumns,
  valueIndexLookup,
} from '../../../src/engine/verified/param-filling';
import { ValueIndex } from '../../../src/engine/index/values/value-index';
import * as P from '../../../src/engine/plan/build';

const plan = P.query(
  P.select({
    columns: [P.item(P.countStar(), 'n')],
    from: P.table('orders'),
    where: P.and(
      P.cmp('=', P.col('country', 'c'), P.param('country')),
      P.cmp('>=', P.col('year'), P.param('year')),
    ),
  }),
);

const vq = (params: CheckedVerifiedQuery['params']): CheckedVerifiedQuery => ({
  id: 'v',
  datasource_id: 'shop',
  question: 'How many orders from France since 2020?',
  sql: 'SELECT ...',
  params,
  plan,
});

const stored: Record<string, string[]> = { country: ['France', 'Côte d’Ivoire', 'United States'] };
const lookup = async (question: string, column: string) =>
  (stored[column] ?? []).filter((v) => question.toLowerCase().includes(v.toLowerCase()));

it('knows which column each parameter is compared with', () => {
  expect(Object.fromEntries(paramColumns(plan))).toEqual({ country: 'country', year: 'year' });
});

it('fills a string from a stored value the question names, spelt as stored', async () => {
  const q = vq({ country: { type: 'string' } });
  await expect(fillParams(q, 'orders from united states please', lookup)).resolves.toEqual({
    country: 'United States',
  });
});

it('fills an integer from the one number in the question', async () => {
  const q = vq({ year: { type: 'integer' } });
  await expect(fillParams(q, 'orders since 2021', lookup)).resolves.toEqual({ year: 2021 });
});

it('gives up (null) when a number is ambiguous, missing, or of the wrong type', async () => {
  const q = vq({ year: { type: 'integer' } });
  await expect(fillParams(q, 'top 10 orders since 2021', lookup)).resolves.toBeNull();
  await expect(fillParams(q, 'orders since last year', lookup)).resolves.toBeNull();
  await expect(fillParams(q, 'orders since 2021.5', lookup)).resolves.toBeNull();
});

it('gives up when no stored value, or two, are named', async () => {
  const q = vq({ country: { type: 'string' } });
  await expect(fillParams(q, 'orders from Spain', lookup)).resolves.toBeNull();
  await expect(fillParams(q, 'orders from France or the United States', lookup)).resolves.toBeNull();
});

it('masks only the kinds of value the query has parameters for', async () => {
  const withYear = vq({ year: { type: 'integer' }, country: { type: 'string' } });
  await expect(maskValues('Orders from France since 2020, top 10', withYear, lookup)).resolves.toBe(
    'Orders from somevalue since somevalue, top somevalue',
  );
  const countryOnly = vq({ country: { type: 'string' } });
  await expect(maskValues('Orders from France since 2020', countryOnly, lookup)).resolves.toBe(
    'Orders from somevalue since 2020',
  );
  await expect(maskValues('Orders placed from :country', countryOnly, lookup)).resolves.toBe(
    'Orders placed from somevalue',
  );
});

it('fills a string from the value index too: any stored value, named exactly, never a corrected one', async () => {
  const values = new ValueIndex(
    ['Germany', 'Gelderland', 'France'].map((value) => ({
      datasourceId: 'shop',
      table: 'customers',
      column: 'country',
      value,
      frequency: 1,
    })),
  );
  const both = combinedLookup(lookup, valueIndexLookup(values, 'shop'));
  const q = vq({ country: { type: 'string' } });
  await expect(fillParams(q, 'orders from germany', both)).resolves.toEqual({ country: 'Germany' });
  // "Germny" is one edit from a stored value: the model may take it, this path does not.
  await expect(fillParams(q, 'orders from Germny', both)).resolves.toBeNull();
  // France is in both lookups: still one value.
  await expect(fillParams(q, 'orders from France', both)).resolves.toEqual({ country: 'France' });
  await expect(fillParams(q, 'orders from germany', valueIndexLookup(values, 'other'))).resolves.toBeNull();
});
