/** The parts of `nl2sql eval` that need no engine: values, questions, execution match, regressions. */
import { importSql } from '../../../src/engine/plan';
import { askedQuestion, evalValues } from '../../../src/engine/verified/evaluation/eval-values';
import {
  regressions,
  type EvalCase,
  type EvalReport,
} from '../../../src/engine/verified/evaluation/evaluation';
import { executionMatch } from '../../../src/engine/verified/evaluation/result-compare';
import type { CheckedVerifiedQuery } from '../../../src/engine/verified/verified-queries';
import { SHOP } from '../../support/plan-fixtures';

const sql = 'SELECT count(*) AS n FROM customers WHERE country = :country AND id > :floor AND email = :mail';
const vq = (params: CheckedVerifiedQuery['params']): CheckedVerifiedQuery => ({
  id: 'v',
  datasource_id: 'shop',
  question: 'q',
  sql,
  params,
  plan: importSql(sql, 'sqlite', SHOP),
});
const withSamples = {
  ...SHOP,
  tables: SHOP.tables.map((t) => ({
    ...t,
    columns: t.columns.map((c) => (c.name === 'email' ? { ...c, sampleValues: ['ann@example.com'] } : c)),
  })),
};

it('takes each value from the example, the description, or a value stored in the compared column', () => {
  const values = evalValues(
    vq({
      country: {
        type: 'string',
        description: 'Country as stored, e.g. Germany or United States',
        example: 'France',
      },
      floor: { type: 'integer', description: 'Smallest id, 1 to 100' },
      mail: { type: 'string' },
    }),
    withSamples,
  );
  expect(values).toEqual({ ok: true, values: { country: 'France', floor: 1, mail: 'ann@example.com' } });
  expect(
    evalValues(vq({ country: { type: 'string', description: 'e.g. Germany or United States' } }), SHOP),
  ).toEqual({
    ok: true,
    values: { country: 'Germany' },
  });
});

it('says which parameter has no value to ask with', () => {
  expect(evalValues(vq({ floor: { type: 'integer', description: 'Smallest id' } }), SHOP)).toEqual({
    ok: false,
    reason: 'no value to ask with for :floor (set params.<name>.example)',
  });
});

it('fills a template where it names a value, and states the others after the question', () => {
  expect(askedQuestion('Orders from :country?', { country: 'France' })).toBe('Orders from France?');
  expect(askedQuestion('Revenue per month in a given year?', { year: 2023, region: 'Europe' })).toBe(
    'Revenue per month in a given year? (year: 2023; region: Europe)',
  );
});

it('matches the same rows whatever their order, and columns by name whatever their order', () => {
  const reference = {
    columns: ['region', 'revenue'],
    rows: [
      ['Europe', 10.5],
      ['Asia', 3],
    ],
  };
  expect(
    executionMatch(reference, {
      columns: ['revenue', 'REGION'],
      rows: [
        [3, 'Asia'],
        ['10.5', 'Europe'],
      ],
    }),
  ).toEqual({
    equal: true,
  });
  // Other names: by position.
  expect(
    executionMatch(reference, {
      columns: ['r', 'total'],
      rows: [
        ['Asia', 3],
        ['Europe', 10.5],
      ],
    }).equal,
  ).toBe(true);
  expect(executionMatch(reference, { columns: ['region', 'revenue'], rows: [['Europe', 10.5]] })).toEqual({
    equal: false,
    reason: 'row count 1, expected 2',
  });
  // A multiset: a row twice is not the same as once.
  expect(
    executionMatch({ columns: ['a'], rows: [[1], [1], [2]] }, { columns: ['a'], rows: [[1], [2], [2]] })
      .equal,
  ).toBe(false);
});

const report = (cases: Partial<EvalCase>[]): EvalReport =>
  ({
    version: 1,
    queries: [
      {
        id: 'v',
        cases: cases.map((c) => ({
          query_id: 'v',
          template: 't',
          question: 't',
          status: 'match',
          match: true,
          reason: null,
          ...c,
        })),
      },
    ],
  }) as unknown as EvalReport;

it('reports as regressions only the questions that matched before and fail now', () => {
  const before = report([
    { template: 'a' },
    { template: 'b', status: 'mismatch', match: false },
    { template: 'c' },
  ]);
  const now = report([
    { template: 'a', status: 'mismatch', match: false, reason: 'row count 0, expected 3' },
    { template: 'b', status: 'mismatch', match: false },
    { template: 'c', status: 'skipped', match: false },
    { template: 'd', status: 'error', match: false },
  ]);
  expect(regressions(before, now)).toEqual([
    { query_id: 'v', template: 'a', question: 't', status: 'mismatch', reason: 'row count 0, expected 3' },
  ]);
});
