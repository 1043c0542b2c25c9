/**
 * Row filters read by the importer (issue 28): one boolean expression over one row, with
 * `:user.<name>` as the caller attribute `user.<name>`. Anything that would bring a clause, a
 * statement or a subquery of its own is refused, and no other SQL the service imports may name a
 * caller attribute.
 */
import { filterAttributes, importRowFilter, importSql, PlanError } from '../../../src/engine/plan';
import * as b from '../../../src/engine/plan/build';

describe('importRowFilter', () => {
  it.each(['sqlite', 'postgres', 'duckdb', 'mysql'] as const)(
    'reads :user.<name> as a parameter on %s',
    (dialect) => {
      expect(importRowFilter("region = :user.region AND status <> 'void'", dialect)).toEqual(
        b.and(
          b.cmp('=', b.col('region'), b.param('user.region')),
          b.cmp('<>', b.col('status'), b.lit('void')),
        ),
      );
    },
  );

  it('names the attributes a filter uses, once each', () => {
    const f = importRowFilter(':user.team = team OR (region IN (:user.region, :user.team))', 'postgres');
    expect(filterAttributes(f)).toEqual(['team', 'region']);
  });

  it.each([
    ['a second statement', "region = 'x'; DELETE FROM orders"],
    ['a clause of its own', "region = 'x' GROUP BY region"],
    ['a set operation', "region = 'x' UNION SELECT 2"],
    ['ORDER BY', "region = 'x' ORDER BY 1"],
    ['LIMIT', "region = 'x' LIMIT 1"],
    ['a subquery', 'region IN (SELECT region FROM reps)'],
    ['an aggregate', 'amount > AVG(amount)'],
    ['a plain placeholder', 'region = :region'],
    ['nothing', ''],
  ])('refuses %s', (_, text) => {
    expect(() => importRowFilter(text, 'postgres')).toThrow(PlanError);
  });

  it('the importer reads :user.<name> nowhere else (a draft or a verified query cannot name an attribute)', () => {
    expect(() => importSql('SELECT * FROM orders WHERE region = :user.region', 'postgres')).toThrow(
      /SQL_IMPORT_UNSUPPORTED|the reference :user\.region/,
    );
  });
});
