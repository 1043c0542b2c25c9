/** The answer's sanity checks: each flags what it should, and stays quiet on a faithful answer. */
import * as P from '../../../src/engine/plan/build';
import type { SchemaSnapshot } from '../../../src/engine/datasources/schema';
import { newSubQuery, type SubQueryState } from '../../../src/engine/run/run-state';
import { checkAnswer } from '../../../src/engine/run/nodes/sanity';

function executed(columns: string[], rows: unknown[][], extra: Partial<SubQueryState> = {}): SubQueryState {
  const sq = newSubQuery('sq1', 'q', 'shop');
  Object.assign(sq, {
    status: 'success',
    rows: { columns, rows, total_rows: rows.length },
    rowCount: rows.length,
    ...extra,
  });
  return sq;
}

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
      rowCountEstimate: 2,
      columns: [
        { name: 'id', type: 'INTEGER', kind: 'integer', nullable: false, sampleValues: [1, 2] },
        { name: 'country', type: 'TEXT', kind: 'text', nullable: true, sampleValues: ['France', 'Finland'] },
      ],
    },
  ],
};

describe('answer sanity checks', () => {
  it('accepts an answer whose numbers and names are all in the rows (rounded as written)', () => {
    const sq = executed(
      ['country', 'total'],
      [
        ['France', 30.456],
        ['Finland', 7.25],
      ],
    );
    expect(
      checkAnswer('France leads with 30.46, ahead of Finland with 7.25.', 'Revenue by country?', [sq]),
    ).toEqual([]);
  });

  it('flags a number that is not in the result', () => {
    const sq = executed(['total'], [[30.5]]);
    const found = checkAnswer('The total is 41.', 'What is the total?', [sq]);
    expect(found.map((f) => f.check)).toEqual(['NUMBER_NOT_IN_RESULT']);
  });

  it('flags a name that is not in the result', () => {
    const sq = executed(
      ['country', 'orders'],
      [
        ['France', 2],
        ['Finland', 1],
      ],
    );
    const found = checkAnswer('Most orders came from France and Germany.', 'Orders per country?', [sq]);
    expect(found).toEqual([
      expect.objectContaining({ check: 'NAME_NOT_IN_RESULT', detail: { value: 'Germany' } }),
    ]);
  });

  it('flags an empty result whose filter value occurs in no sample of its column', () => {
    const plan = P.query(
      P.select({
        columns: [P.countStar()],
        from: P.table('customers'),
        where: P.cmp('=', P.col('country'), P.lit('france')),
      }),
    );
    const sq = executed(['count'], [], { plan, snapshot, rowCount: 0 });
    sq.rows = { columns: ['count'], rows: [], total_rows: 0 };
    const found = checkAnswer('No customers matched.', 'How many customers in Spain?', [sq]);
    // 'france' matches 'France' case-insensitively: a spelling the data has, so no finding.
    expect(found).toEqual([]);
    const spain = P.query(
      P.select({
        columns: [P.countStar()],
        from: P.table('customers'),
        where: P.cmp('=', P.col('country'), P.lit('Spain')),
      }),
    );
    const flagged = checkAnswer('No customers matched.', 'How many customers in Spain?', [
      { ...sq, plan: spain },
    ]);
    expect(flagged.map((f) => f.check)).toEqual(['FILTER_VALUE_UNSEEN']);
  });

  it('flags a truncated result summarised as if whole, and not one that says it is partial', () => {
    const sq = executed(['id'], [[1], [2]], { truncated: true, datasourceRowCap: 2 });
    expect(checkAnswer('The orders are 1 and 2.', 'List the orders', [sq]).map((f) => f.check)).toEqual([
      'TRUNCATED_AS_WHOLE',
    ]);
    expect(checkAnswer('Only the first 2 rows are shown: orders 1 and 2.', 'List the orders', [sq])).toEqual(
      [],
    );
  });
});
