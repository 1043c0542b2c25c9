/**
 * What models are given under row and column policies (issue 28): the planner's schema shows no
 * stored value of a masked column or of a row-filtered table (and says a masked column may only be
 * selected); model_sees picks the most restrictive role; `aggregates` finds the result columns a
 * plan computes with an aggregate; a database error fed back to a blind planner loses its values.
 */
import type { SchemaSnapshot } from '../../../src/engine/datasources/schema';
import { importSql } from '../../../src/engine/plan';
import { aggregateColumns, modelSeesFor, withoutQuotedValues } from '../../../src/engine/policy/model-sees';
import type { RolePolicies } from '../../../src/engine/policy/rbac';
import { renderSchema } from '../../../src/engine/run/prompts/schema-text';

const snapshot: SchemaSnapshot = {
  datasourceId: 'shop',
  dialect: 'sqlite',
  schemaVersion: 'v',
  introspectedAt: '2026-01-01T00:00:00Z',
  tables: [
    {
      name: 'customers',
      schema: null,
      primaryKey: ['id'],
      foreignKeys: [],
      rowCountEstimate: 1200,
      columns: [
        { name: 'id', type: 'INTEGER', kind: 'integer', nullable: false, sampleValues: [1, 2] },
        { name: 'name', type: 'TEXT', kind: 'text', nullable: false, sampleValues: ['Zorblatt'] },
        { name: 'phone', type: 'TEXT', kind: 'text', nullable: true, sampleValues: ['+33 612345678'] },
      ],
    },
    {
      name: 'orders',
      schema: null,
      primaryKey: ['id'],
      foreignKeys: [{ columns: ['customer_id'], refTable: 'customers', refColumns: ['id'] }],
      rowCountEstimate: 5000,
      columns: [
        { name: 'id', type: 'INTEGER', kind: 'integer', nullable: false, sampleValues: [1] },
        { name: 'customer_id', type: 'INTEGER', kind: 'integer', nullable: false, sampleValues: [1] },
        { name: 'region', type: 'TEXT', kind: 'text', nullable: false, sampleValues: ['reg_alpha'] },
        { name: 'amount', type: 'INTEGER', kind: 'integer', nullable: false, sampleValues: [1001] },
      ],
    },
  ],
};

const POLICIES = {
  support: { columns: { mask: ['shop.customers.phone'] } },
  rep: { rows: { 'shop.orders': 'region = :user.region' } },
  auditor: { model_sees: 'aggregates' },
  external: { model_sees: 'none' },
  plain: {},
} as unknown as NonNullable<RolePolicies>;

const render = (roles: string[], samples?: number) =>
  renderSchema(snapshot, { datasourceId: 'shop', policies: POLICIES, roles, samples });

describe("the planner's schema under policies", () => {
  it('shows samples and row estimates where nothing narrows the data', () => {
    const text = render(['plain']);
    expect(text).toContain("'Zorblatt'");
    expect(text).toContain("'+33 612345678'");
    expect(text).toContain('~5000 rows');
  });

  it('a masked column: marked, and no value', () => {
    const text = render(['support']);
    expect(text).toContain(
      '  phone TEXT -- [masked for your role: select it only; never filter, join, group or sort on it]',
    );
    expect(text).not.toContain('612345678');
    expect(text).toContain("'Zorblatt'");
  });

  it('a row-filtered table: no value and no row estimate; a role reading it whole restores both', () => {
    const text = render(['rep']);
    expect(text).not.toContain('reg_alpha');
    expect(text).not.toContain('~5000 rows');
    expect(text).toContain('~1200 rows');
    expect(render(['rep', 'plain'])).toContain("'reg_alpha'");
  });

  it('no sample at all with samples 0 (model_sees none)', () => {
    const text = render(['plain'], 0);
    for (const v of ['Zorblatt', '612345678', 'reg_alpha']) expect(text).not.toContain(v);
  });
});

describe('model_sees', () => {
  it('is the most restrictive of the caller’s listed roles, rows by default', () => {
    expect(modelSeesFor(POLICIES, ['plain'])).toEqual({ level: 'rows', role: null });
    expect(modelSeesFor(POLICIES, ['plain', 'auditor'])).toEqual({ level: 'aggregates', role: 'auditor' });
    expect(modelSeesFor(POLICIES, ['external', 'auditor'])).toEqual({ level: 'none', role: 'external' });
    expect(modelSeesFor(null, ['external'])).toEqual({ level: 'rows', role: null });
  });

  it.each([
    [
      'a grouped select',
      'SELECT region, COUNT(*) AS n, SUM(amount) FROM orders GROUP BY region',
      [false, true, true],
    ],
    ['an expression over an aggregate', 'SELECT MAX(amount) - MIN(amount) AS spread FROM orders', [true]],
    ['plain columns', 'SELECT id, region FROM orders', [false, false]],
    [
      'a CTE column computed by an aggregate',
      'WITH t AS (SELECT region, SUM(amount) AS total FROM orders GROUP BY region) SELECT region, total FROM t',
      [false, true],
    ],
    [
      'a star over a derived table',
      'SELECT * FROM (SELECT region, COUNT(*) AS n FROM orders GROUP BY region) d',
      [false, true],
    ],
    [
      'a set operation: only what both branches aggregate',
      'SELECT region, COUNT(*) FROM orders GROUP BY region UNION SELECT region, amount FROM orders',
      [false, false],
    ],
    ['a window is per row, not an aggregate', 'SELECT id, SUM(amount) OVER () FROM orders', [false, false]],
  ])('aggregates: %s', (_, sql, expected) => {
    expect(aggregateColumns(importSql(sql, 'sqlite', snapshot), snapshot)).toEqual(expected);
  });

  it("a database error's quoted values are taken out of a blind planner's feedback, names kept", () => {
    const previous = {
      plan: null,
      draft: null,
      problems: [
        'the database rejected the SQL: invalid input syntax for type integer: "N/A" in column "amount"',
        '/body/columns/0: Column "regoin" does not exist',
      ],
    };
    expect(withoutQuotedValues(previous, snapshot).problems).toEqual([
      'the database rejected the SQL: invalid input syntax for type integer: "…" in column "amount"',
      '/body/columns/0: Column "regoin" does not exist',
    ]);
  });
});
