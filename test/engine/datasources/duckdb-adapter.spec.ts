import { adapterContract } from './support/adapter-contract';

adapterContract({
  type: 'duckdb',
  varcharType: /^VARCHAR$/,
  slow: 'SELECT sum(a.range * b.range) FROM range(1000000) a, range(1000000) b',
  hundredThousand: 'SELECT range AS n FROM range(1, 100001)',
  values: `SELECT 9007199254740993::BIGINT AS big, 12.50::DECIMAL(10,2) AS amount, TIMESTAMP '2024-01-02 03:04:05' AS ts, '\\xAA\\xBB'::BLOB AS bin, DATE '2024-01-02' AS day`,
  byCountry: 'SELECT name FROM customers WHERE country = $1 ORDER BY id',
  // A read-only DuckDB file would still allow these; the adapter lets only SELECT and EXPLAIN run.
  extraWrites: [
    'CREATE TEMP TABLE scratch (a INTEGER)',
    "ATTACH '/tmp/nl2sql-should-not-exist.duckdb' AS other",
  ],
});
