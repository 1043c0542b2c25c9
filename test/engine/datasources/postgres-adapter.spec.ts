import { adapterContract, COLUMN_COMMENT, TABLE_COMMENT } from '../../support/datasources/adapter-contract';

adapterContract({
  type: 'postgres',
  commentDdl: (s) => [
    `COMMENT ON TABLE customers IS ${s(TABLE_COMMENT)}`,
    `COMMENT ON COLUMN customers.country IS ${s(COLUMN_COMMENT)}`,
  ],
  varcharType: /^character varying\(40\)$/,
  slow: 'SELECT pg_sleep(30)',
  hundredThousand: 'SELECT g AS n FROM generate_series(1, 100000) g',
  values: `SELECT 9007199254740993::bigint AS big, 12.50::numeric(10,2) AS amount, TIMESTAMP '2024-01-02 03:04:05' AS ts, '\\xaabb'::bytea AS bin, DATE '2024-01-02' AS day`,
  byCountry: 'SELECT name FROM customers WHERE country = $1 ORDER BY id',
  liftReadOnly: 'SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE',
  extraWrites: [
    // a data-modifying CTE cannot hide in a SELECT
    'WITH gone AS (DELETE FROM customers RETURNING id) SELECT count(*) FROM gone',
    'TRUNCATE order_items',
    'CREATE TEMP TABLE scratch (a INTEGER)',
    // a read-only transaction would let COPY write a server file: refused before
    "COPY customers TO '/tmp/nl2sql-should-not-exist.csv'",
  ],
});
