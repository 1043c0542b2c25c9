/**
 * Masked columns in the validator (issue 28): a column a role reads masked may be selected, and
 * counted, but used to filter, join, group, sort, or inside any other aggregate it is refused with
 * COLUMN_DENIED before any rewrite, worded like the validator's other column refusals. Whether a
 * column is masked for a caller is decided over all of the caller's roles: one role that reads it
 * unmasked and unfiltered clears it; one that reads it unmasked but only in some rows does not.
 */
import { importSql, validatePlan, type RolePolicies } from '../../../src/engine/plan';
import { SHOP } from '../../support/plan-fixtures';

const POLICIES: RolePolicies = {
  support: { columns: { mask: ['shop.customers.email'] } },
  rep: { rows: { 'shop.customers': 'country = :user.country' } },
  auditor: {},
  masker_all: { columns: { mask: ['shop.customers.email'], mask_keep: 4 } },
};

function problems(sql: string, roles: string[]) {
  const plan = importSql(sql, 'sqlite', SHOP);
  return validatePlan(plan, SHOP, { datasourceId: 'shop', roles, rolePolicies: POLICIES }).problems;
}

describe('a masked column in the validator', () => {
  it.each([
    ['a select item', 'SELECT name, email FROM customers'],
    ['COUNT of it', 'SELECT COUNT(email) FROM customers'],
    ['a scalar function in a select item', 'SELECT UPPER(email) FROM customers'],
    ['a select item of a subquery', 'SELECT name FROM customers WHERE id IN (SELECT id FROM customers)'],
    [
      'its output alias in ORDER BY (the masked value is sorted)',
      'SELECT email AS e FROM customers ORDER BY e',
    ],
  ])('may be used as %s', (_, sql) => {
    expect(problems(sql, ['support'])).toEqual([]);
  });

  it.each([
    ['WHERE', "SELECT name FROM customers WHERE email = 'ann@example.com'", 'WHERE'],
    ['WHERE inside a function', "SELECT name FROM customers WHERE LOWER(email) LIKE '%ann%'", 'WHERE'],
    [
      'a join condition',
      'SELECT c.name FROM customers c JOIN customers d ON c.email = d.email',
      'a join condition',
    ],
    ['GROUP BY', 'SELECT email, COUNT(*) FROM customers GROUP BY email', 'GROUP BY'],
    ['HAVING', 'SELECT country FROM customers GROUP BY country HAVING COUNT(email) > 1', 'HAVING'],
    ['ORDER BY', 'SELECT name FROM customers ORDER BY email', 'ORDER BY'],
    ['MAX', 'SELECT MAX(email) FROM customers', 'MAX(...)'],
    ['COUNT(DISTINCT ...)', 'SELECT COUNT(DISTINCT email) FROM customers', 'COUNT(DISTINCT ...)'],
    [
      "a window's PARTITION BY",
      'SELECT name, ROW_NUMBER() OVER (PARTITION BY email ORDER BY id) FROM customers',
      "a window's PARTITION BY or ORDER BY",
    ],
    [
      'the WHERE of a subquery',
      "SELECT name FROM customers c WHERE EXISTS (SELECT 1 FROM customers d WHERE d.email = 'x')",
      'WHERE',
    ],
    [
      'the WHERE of a CTE',
      "WITH m AS (SELECT id FROM customers WHERE email LIKE '%@example.com') SELECT COUNT(*) FROM m",
      'WHERE',
    ],
  ])('is COLUMN_DENIED in %s', (_, sql, place) => {
    const found = problems(sql, ['support']);
    // One problem per use (a join on email = email uses it twice).
    expect(found.length).toBeGreaterThan(0);
    expect(new Set(found.map((p) => p.code))).toEqual(new Set(['COLUMN_DENIED']));
    expect(found[0]!.message).toBe(
      `The caller's roles may read column "customers.email" only masked, so it may not be used in ${place}. Select it, or answer without it.`,
    );
  });

  it('is not masked for a caller with another role that reads every row of it unmasked', () => {
    expect(problems("SELECT name FROM customers WHERE email = 'x'", ['support', 'auditor'])).toEqual([]);
  });

  it('stays masked when the role that reads it unmasked reads only some rows', () => {
    const found = problems("SELECT name FROM customers WHERE email = 'x'", ['support', 'rep']);
    expect(found.map((p) => p.code)).toEqual(['COLUMN_DENIED']);
  });

  it('is only masked for the roles that mask it, and other columns are never refused', () => {
    expect(problems("SELECT name FROM customers WHERE email = 'x'", ['rep'])).toEqual([]);
    expect(problems("SELECT email FROM customers WHERE name = 'Ann' ORDER BY country", ['support'])).toEqual(
      [],
    );
  });
});
