/**
 * Issue 23, item 1: values reach MySQL/MariaDB as bound parameters of server-side prepared
 * statements, never spliced into the SQL text with client-side escaping, and the service sets the
 * session's sql_mode itself; so a server whose global sql_mode is hostile
 * (NO_BACKSLASH_ESCAPES, under which a backslash no longer escapes a quote, and ANSI_QUOTES, under
 * which "x" is an identifier) runs exactly the statements the service meant. Proved against a
 * private MariaDB started with that sql_mode, with hostile values in literals, LIKE patterns, IN
 * lists, verified-query parameters and identifiers: the rows returned are exactly the matching
 * ones, and the server's statement digests show that it never parsed a SLEEP call or a UNION.
 * The adapter contract runs against the same server.
 */
import type { RowDataPacket } from 'mysql2/promise';
import type { DatasourceAdapter } from '../../../src/engine/datasources/adapter';
import type { SchemaSnapshot } from '../../../src/engine/datasources/schema';
import { compilePlan, importSql, type Expr, type Plan } from '../../../src/engine/plan';
import * as b from '../../../src/engine/plan/build';
import { adapterContract, build } from '../../support/datasources/adapter-contract';
import { createFixture, type Fixture } from '../../support/datasources/fixtures';
import { MYSQL_SQL } from '../../support/datasources/mysql-sql';
import { startPrivateMariadb, type PrivateMariadb } from '../../support/datasources/private-mariadb';

jest.setTimeout(120_000);

const HOSTILE_MODE = 'NO_BACKSLASH_ESCAPES,ANSI_QUOTES';
const HOSTILE = [
  "\\' OR 1=1 -- ",
  "item 1' UNION SELECT name, salary, 1 FROM payroll -- ",
  "x' OR SLEEP(3) -- ",
  '" OR ""="',
  "it\\'s",
  'back\\slash',
];
/** An identifier that breaks every quoting style but backticks doubled. */
const ODD = `odd "t" \`q\` 'x' \\ -- end`;

let server: PrivateMariadb;

beforeAll(async () => {
  server = await startPrivateMariadb({ sqlMode: HOSTILE_MODE, performanceSchema: true });
});
afterAll(async () => {
  await server?.stop();
});

adapterContract(MYSQL_SQL, {
  title: `private server with sql_mode ${HOSTILE_MODE}`,
  fixture: () => createFixture('mysql', server),
});

describe(`values and identifiers on a server with sql_mode ${HOSTILE_MODE}`, () => {
  let fixture: Fixture;
  let adapter: DatasourceAdapter;
  let snapshot: SchemaSnapshot;
  /** items: one row per hostile value (its name is the value), then plain rows. */
  const names = [...HOSTILE, 'item 1', 'item 2', 'x', 'plain'];

  beforeAll(async () => {
    fixture = await createFixture('mysql', server);
    const c = await server.connect(String(fixture.config.connection.database));
    try {
      await c.query(
        'CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(120) NOT NULL, price INT NOT NULL)',
      );
      await c.query('CREATE TABLE payroll (id INT PRIMARY KEY, name VARCHAR(40), salary INT)');
      await c.query("INSERT INTO payroll VALUES (1, 'secret person', 999999)");
      // this client's own escaping is wrong on this server too: bound by execute() here
      for (const [i, name] of names.entries())
        await c.execute('INSERT INTO items VALUES (?, ?, ?)', [i + 1, name, 10 * (i + 1)]);
      const quoted = '`' + ODD.replace(/`/g, '``') + '`';
      await c.query(`CREATE TABLE ${quoted} (id INT PRIMARY KEY, ${quoted} VARCHAR(40))`);
      await c.execute(`INSERT INTO ${quoted} VALUES (1, ?), (2, ?), (3, ?)`, ['a', 'b', 'a']);
    } finally {
      await c.end();
    }
    adapter = build(fixture);
    snapshot = await adapter.introspect({ sampleValues: 3 });
  });
  afterAll(async () => {
    await adapter?.close();
    await fixture?.drop();
  });

  async function rowsOf(plan: Plan, params?: Record<string, string>): Promise<unknown[][]> {
    const compiled = compilePlan(plan, 'mysql', { schema: snapshot, params });
    return (await adapter.execute(compiled.sql, compiled.params)).rows;
  }

  const idOf = (name: string) => names.indexOf(name) + 1;
  const itemsWhere = (where: Expr) =>
    b.query(b.select({ columns: [b.col('id'), b.col('name')], from: b.table('items'), where }), {
      orderBy: [b.order(b.col('id'))],
    });

  it.each(HOSTILE)('a literal compared with = matches only its own row: %s', async (value) => {
    const rows = await rowsOf(itemsWhere(b.cmp('=', b.col('name'), b.lit(value))));
    expect(rows).toEqual([[idOf(value), value]]);
  });

  it.each(HOSTILE)('a LIKE pattern holding the value matches only its own row: %s', async (value) => {
    const rows = await rowsOf(itemsWhere(b.like(b.col('name'), b.lit(`%${value}`), false, false)));
    expect(rows).toEqual([[idOf(value), value]]);
  });

  it('an IN list of hostile values matches exactly those rows', async () => {
    const picked = [HOSTILE[0]!, HOSTILE[1]!, HOSTILE[2]!, 'plain'];
    const rows = await rowsOf(
      itemsWhere(
        b.inList(
          b.col('name'),
          picked.map((v) => b.lit(v)),
        ),
      ),
    );
    expect(rows).toEqual(picked.map((v) => [idOf(v), v]).sort((x, y) => Number(x[0]) - Number(y[0])));
  });

  it.each(HOSTILE)("a verified query's parameter matches only its own row: %s", async (value) => {
    const plan = importSql('SELECT id, name FROM items WHERE name = :name ORDER BY id', 'mysql', snapshot);
    expect(await rowsOf(plan, { name: value })).toEqual([[idOf(value), value]]);
  });

  it('a value bound by the adapter itself stays one value', async () => {
    for (const value of HOSTILE) {
      const result = await adapter.execute('SELECT id FROM items WHERE name = ? ORDER BY id', [value]);
      expect(result.rows).toEqual([[idOf(value)]]);
    }
    const echoed = await adapter.execute('SELECT ? AS v', [HOSTILE[1]]);
    expect(echoed.rows).toEqual([[HOSTILE[1]]]);
  });

  it('reads, samples and counts a table and column whose name breaks naive quoting', async () => {
    const odd = snapshot.tables.find((t) => t.name === ODD);
    expect(odd?.columns.map((c) => c.name)).toEqual(['id', ODD]);
    expect(odd?.columns[1]?.sampleValues).toEqual(['a', 'b']);
    expect(odd?.rowCountEstimate).toBe(3);
    expect(await adapter.distinctValues(odd!, ODD, { limit: 5, sampleRows: null })).toEqual([
      { value: 'a', count: 2 },
      { value: 'b', count: 1 },
    ]);
    expect(await adapter.distinctValues(odd!, ODD, { limit: 5, sampleRows: 10, tableRows: 3 })).toEqual([
      { value: 'a', count: 2 },
      { value: 'b', count: 1 },
    ]);
    const plan = b.query(
      b.select({ columns: [b.col('id')], from: b.table(ODD), where: b.cmp('=', b.col(ODD), b.lit('a')) }),
      { orderBy: [b.order(b.col('id'))] },
    );
    expect(await rowsOf(plan)).toEqual([[1], [3]]);
  });

  it('never let the server parse a hostile value as SQL (statement digests)', async () => {
    const c = await server.connect();
    try {
      const [rows] = await c.query<RowDataPacket[]>(
        'SELECT DIGEST_TEXT FROM performance_schema.events_statements_summary_by_digest',
      );
      const digests = rows.map((r) => String(r.DIGEST_TEXT));
      // the digests are recorded (the fixture's own INSERT is there) ...
      expect(digests.some((d) => /INSERT INTO `payroll`/.test(d))).toBe(true);
      // ... and none is a statement where a value became a SLEEP call, a UNION or an OR
      expect(digests.filter((d) => /SLEEP|`items`.*UNION|UNION.*`payroll`|NAME = \? OR/i.test(d))).toEqual(
        [],
      );
    } finally {
      await c.end();
    }
  });
});
