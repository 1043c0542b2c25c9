/** The MySQL/MariaDB spelling of the adapter contract's statements (adapter-contract.ts). */
import { COLUMN_COMMENT, TABLE_COMMENT, type DialectSql } from './adapter-contract';

const digits = Array.from({ length: 10 }, (_, i) => `SELECT ${i} AS x`).join(' UNION ALL ');

export const MYSQL_SQL: DialectSql = {
  type: 'mysql',
  commentDdl: (s) => [
    `ALTER TABLE customers COMMENT = ${s(TABLE_COMMENT)}`,
    `ALTER TABLE customers MODIFY country VARCHAR(20) NOT NULL COMMENT ${s(COLUMN_COMMENT)}`,
  ],
  varcharType: /^varchar\(40\)$/,
  slow: 'SELECT SLEEP(30)',
  hundredThousand: `WITH d AS (${digits}) SELECT 1 + a.x + 10 * b.x + 100 * c.x + 1000 * e.x + 10000 * f.x AS n FROM d a, d b, d c, d e, d f`,
  values: `SELECT CAST(9007199254740993 AS SIGNED) AS big, CAST(12.50 AS DECIMAL(10,2)) AS amount, CAST('2024-01-02 03:04:05' AS DATETIME) AS ts, x'aabb' AS bin, DATE '2024-01-02' AS day`,
  byCountry: 'SELECT name FROM customers WHERE country = ? ORDER BY id',
  liftReadOnly: 'SET SESSION TRANSACTION READ WRITE', // refused now, but the next statement must hold either way
  extraWrites: [
    'TRUNCATE TABLE order_items',
    'ALTER TABLE customers ADD COLUMN hacked INT',
    // not stopped by a read-only transaction: refused before they are sent
    'SET GLOBAL max_connections = 1',
    "SELECT * FROM customers INTO OUTFILE '/tmp/nl2sql-should-not-exist.txt'",
    '/*!50000 SET GLOBAL max_connections = 1 */',
  ],
};
