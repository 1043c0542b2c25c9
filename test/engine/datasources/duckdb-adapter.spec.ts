import { createFixture } from '../../support/datasources/fixtures';
import { createAdapter } from '../../../src/engine/datasources/factory';
import {
  adapterContract,
  rejectionOf,
  secrets,
  COLUMN_COMMENT,
  TABLE_COMMENT,
} from '../../support/datasources/adapter-contract';

adapterContract({
  type: 'duckdb',
  commentDdl: (s) => [
    `COMMENT ON TABLE customers IS ${s(TABLE_COMMENT)}`,
    `COMMENT ON COLUMN customers.country IS ${s(COLUMN_COMMENT)}`,
  ],
  varcharType: /^VARCHAR$/,
  slow: 'SELECT sum(a.range * b.range) FROM range(1000000) a, range(1000000) b',
  hundredThousand: 'SELECT range AS n FROM range(1, 100001)',
  values: `SELECT 9007199254740993::BIGINT AS big, 12.50::DECIMAL(10,2) AS amount, TIMESTAMP '2024-01-02 03:04:05' AS ts, '\\xAA\\xBB'::BLOB AS bin, DATE '2024-01-02' AS day`,
  byCountry: 'SELECT name FROM customers WHERE country = $1 ORDER BY id',
  // A read-only DuckDB file would still allow these; the adapter lets only SELECT and EXPLAIN run.
  liftReadOnly: "SET access_mode = 'READ_WRITE'",
  extraWrites: [
    'CREATE TEMP TABLE scratch (a INTEGER)',
    "ATTACH '/tmp/nl2sql-should-not-exist.duckdb' AS other",
  ],
});

describe('duckdb adapter opened writable (the embedded demo)', () => {
  it('still runs only SELECT and EXPLAIN', async () => {
    const fixture = await createFixture('duckdb');
    const adapter = createAdapter(fixture.config, { secrets, writable: true });
    try {
      expect((await adapter.execute('SELECT count(*) FROM customers')).rows).toEqual([[3]]);
      expect((await adapter.execute('EXPLAIN SELECT * FROM customers')).rows.length).toBeGreaterThan(0);
      for (const sql of [
        "INSERT INTO customers VALUES (9, 'Zed', NULL, 'Peru')",
        'DROP TABLE order_items',
        'CHECKPOINT',
      ]) {
        expect((await rejectionOf(adapter.execute(sql))).code).toBe('DATASOURCE_READ_ONLY');
      }
      expect((await adapter.execute('SELECT count(*) FROM customers')).rows).toEqual([[3]]);
    } finally {
      await adapter.close();
      await fixture.drop();
    }
  });
});
