/**
 * Statements run as server-side prepared statements, whose rows come in MySQL's binary protocol:
 * every column type still becomes the cell the adapter contract describes (adapter.ts, cells.ts),
 * and bound values keep their types (an integer stays an integer in `? + 1`). Real MariaDB.
 */
import type { DatasourceAdapter } from '../../../src/engine/datasources/adapter';
import { build } from '../../support/datasources/adapter-contract';
import { createFixture, type Fixture } from '../../support/datasources/fixtures';

let fixture: Fixture;
let adapter: DatasourceAdapter;

const COLUMNS = [
  ['ti', 'TINYINT', '-5', -5, 'integer'],
  ['tu', 'TINYINT UNSIGNED', '250', 250, 'integer'],
  ['si', 'SMALLINT', '-30000', -30000, 'integer'],
  ['mi', 'MEDIUMINT UNSIGNED', '16000000', 16000000, 'integer'],
  ['i', 'INT', '-2000000000', -2000000000, 'integer'],
  ['bi', 'BIGINT', '-9007199254740993', '-9007199254740993', 'integer'],
  ['bu', 'BIGINT UNSIGNED', '18446744073709551615', '18446744073709551615', 'integer'],
  ['f', 'FLOAT', '1.1', 1.1, 'float'],
  ['d', 'DOUBLE', '0.1', 0.1, 'float'],
  ['dec', 'DECIMAL(30,4)', '12345678901234567890.1200', '12345678901234567890.12', 'decimal'],
  ['dsmall', 'DECIMAL(6,2)', '12.50', 12.5, 'decimal'],
  ['dt', 'DATE', "'2024-02-29'", '2024-02-29', 'date'],
  ['dtm', 'DATETIME(3)', "'2024-01-02 03:04:05.120'", '2024-01-02T03:04:05.120', 'timestamp'],
  ['dtz', 'DATETIME', "'2024-01-02 00:00:00'", '2024-01-02T00:00:00', 'timestamp'],
  ['ts', 'TIMESTAMP', "'2024-01-02 03:04:05'", '2024-01-02T03:04:05Z', 'timestamp'],
  ['tm', 'TIME', "'-838:59:59'", '-838:59:59', 'time'],
  ['y', 'YEAR', '2024', 2024, 'integer'],
  ['b1', 'BIT(1)', "b'1'", 1, 'integer'],
  ['b12', 'BIT(12)', "b'101010101010'", 2730, 'integer'],
  ['c', 'CHAR(3)', "'ab'", 'ab', 'text'],
  ['vc', 'VARCHAR(20) CHARACTER SET utf8mb4', "'héllo ✓'", 'héllo ✓', 'text'],
  ['tx', 'TEXT', "'long text'", 'long text', 'text'],
  ['bl', 'BLOB', "x'00ff'", 'AP8=', 'blob'],
  ['vb', 'VARBINARY(4)', "x'aabb'", 'qrs=', 'blob'],
  ['e', "ENUM('a','b')", "'b'", 'b', 'text'],
  ['st', "SET('x','y')", "'x,y'", 'x,y', 'text'],
  ['js', 'JSON', `'{"a": [1, 2]}'`, '{"a": [1, 2]}', null],
] as const;

beforeAll(async () => {
  fixture = await createFixture('mysql');
  await fixture.alter(
    `CREATE TABLE cells (id INT PRIMARY KEY, ${COLUMNS.map(([n, t]) => `\`${n}\` ${t} NULL`).join(', ')})`,
  );
  await fixture.alter(`INSERT INTO cells VALUES (1, ${COLUMNS.map((c) => c[2]).join(', ')})`);
  await fixture.alter(`INSERT INTO cells (id) VALUES (2)`);
  adapter = build(fixture);
});
afterAll(async () => {
  await adapter?.close();
  await fixture?.drop();
});

it('reads every column type of a prepared statement into its cell', async () => {
  const result = await adapter.execute(
    `SELECT ${COLUMNS.map((c) => `\`${c[0]}\``).join(', ')} FROM cells ORDER BY id`,
  );
  expect(result.rows[0]).toEqual(COLUMNS.map((c) => c[3]));
  expect(result.rows[1]).toEqual(COLUMNS.map(() => null));
  const kinds = result.columns.map((c) => c.kind);
  COLUMNS.forEach(([name, , , , kind], i) => {
    // MariaDB reports JSON as LONGTEXT: its kind is whatever the server says, json or text
    if (kind) expect({ name, kind: kinds[i] }).toEqual({ name, kind });
  });
});

it('binds integers as integers, other numbers as doubles, and text and booleans as themselves', async () => {
  const result = await adapter.execute('SELECT ? + 1 AS i, ? * 2 AS f, ? AS s, ? AS t, ? AS n, ? AS big', [
    7,
    0.75,
    "it's",
    true,
    null,
    9007199254740993n,
  ]);
  expect(result.rows).toEqual([[8, 1.5, "it's", 1, null, '9007199254740993']]);
  expect(result.columns.map((c) => c.kind).slice(0, 2)).toEqual(['integer', 'float']);
});

it('runs the same statement again on a reused prepared statement with other values', async () => {
  const sql = 'SELECT id FROM cells WHERE id = ?';
  for (const id of [1, 2, 1, 3]) {
    expect((await adapter.execute(sql, [id])).rows).toEqual(id <= 2 ? [[id]] : []);
  }
});
