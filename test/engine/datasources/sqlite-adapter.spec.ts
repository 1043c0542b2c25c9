import { adapterContract } from '../../support/datasources/adapter-contract';

adapterContract({
  type: 'sqlite',
  // SQLite has no comments on tables or columns.
  commentDdl: null,
  varcharType: /^VARCHAR\(40\)$/,
  slow: 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r',
  hundredThousand:
    'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 100000) SELECT n FROM r',
  values: `SELECT 9007199254740993 AS big, 12.50 AS amount, '2024-01-02T03:04:05' AS ts, x'aabb' AS bin, '2024-01-02' AS day`,
  byCountry: 'SELECT name FROM customers WHERE country = ? ORDER BY id',
  timestampSample: '2024-01-02 03:04:05',
  // VACUUM INTO would write a new file even from a read-only database
  liftReadOnly: 'PRAGMA query_only = OFF',
  extraWrites: ["VACUUM INTO '/tmp/nl2sql-should-not-exist.sqlite'", 'PRAGMA query_only = OFF'],
});
