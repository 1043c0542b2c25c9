/**
 * The behaviour every adapter must show against its real database, run once per type by the
 * `<type>-adapter.spec.ts` files with the dialect's own SQL for the parts that differ.
 */
import { SecretManager } from '../../../src/config/secrets';
import type { DatasourceAdapter, DatasourceType, ResultBatch } from '../../../src/engine/datasources/adapter';
import { createAdapter } from '../../../src/engine/datasources/factory';
import type { SchemaSnapshot, TableInfo } from '../../../src/engine/datasources/schema';
import { createFixture, type Fixture } from './fixtures';

export interface DialectSql {
  readonly type: DatasourceType;
  /** Declared type of customers.name as the catalog spells it. */
  readonly varcharType: RegExp;
  /** Runs for seconds (far beyond the test's timeout). */
  readonly slow: string;
  /** 100 000 rows, one column `n` = 1..100000. */
  readonly hundredThousand: string;
  /** One row: big = 9007199254740993, amount = DECIMAL 12.50, ts = 2024-01-02 03:04:05, bin = bytes aa bb, day = 2024-01-02. */
  readonly values: string;
  /** `SELECT name FROM customers WHERE country = <param 1> ORDER BY id`. */
  readonly byCountry: string;
  /** Write statements the database itself must refuse (beyond the common INSERT/UPDATE/DELETE/CREATE/DROP). */
  readonly extraWrites?: readonly string[];
  /** A statement that would make the session writable for the statements after it, if it could. */
  readonly liftReadOnly?: string;
  /** orders.placed_at '2024-01-02 03:04:05' as a sample value (SQLite keeps its TEXT as stored). */
  readonly timestampSample?: string;
  /**
   * DDL in the database's own syntax that comments the table customers with TABLE_COMMENT and its
   * column country (type VARCHAR(20) NOT NULL) with COLUMN_COMMENT; null for a database that has
   * no comments (SQLite).
   */
  readonly commentDdl: ((sqlString: (text: string) => string) => readonly string[]) | null;
}

/** A table comment, and a column comment with a line break and a block-comment end in it. */
export const TABLE_COMMENT = 'People who placed at least one order';
export const COLUMN_COMMENT = "Country of delivery,\nas the carrier's form spells it */ DROP TABLE x; --";

/** A string literal every dialect reads the same way (no backslash escapes needed). */
const sqlString = (text: string) => `'${text.replace(/'/g, "''")}'`;

export const secrets = new SecretManager({});

export function build(fixture: Fixture): DatasourceAdapter {
  return createAdapter(fixture.config, { secrets });
}

export async function rejectionOf(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (e) {
    return { code: String((e as { code?: unknown }).code), message: (e as Error).message };
  }
  throw new Error('expected the statement to fail, it succeeded');
}

async function countOf(adapter: DatasourceAdapter, table: string): Promise<unknown> {
  return (await adapter.execute(`SELECT COUNT(*) AS n FROM ${table}`)).rows[0]?.[0];
}

function table(snapshot: SchemaSnapshot, name: string): TableInfo {
  const t = snapshot.tables.find((x) => x.name === name);
  if (!t) throw new Error(`no table ${name} in ${snapshot.tables.map((x) => x.name).join(', ')}`);
  return t;
}

export interface ContractOptions {
  /** Builds the fixture (called in beforeAll): another server than the shared one, e.g. a private
   * MariaDB with a hostile sql_mode. Default: `createFixture(d.type)`. */
  readonly fixture?: () => Promise<Fixture>;
  /** Added to the suite's title. */
  readonly title?: string;
}

export function adapterContract(d: DialectSql, options: ContractOptions = {}): void {
  describe(`${d.type} adapter against a real database${options.title ? ` (${options.title})` : ''}`, () => {
    let fixture: Fixture;
    let adapter: DatasourceAdapter;

    beforeAll(async () => {
      fixture = await (options.fixture ?? (() => createFixture(d.type)))();
      adapter = build(fixture);
      await adapter.connect();
    });
    afterAll(async () => {
      await adapter?.close();
      await fixture?.drop();
    });

    it('passes a health check once connected', async () => {
      await expect(adapter.healthCheck()).resolves.toBeUndefined();
      expect(adapter.type).toBe(d.type);
    });

    it('introspects tables, columns, kinds, nullability, keys, samples and row estimates', async () => {
      const snap = await adapter.introspect({ sampleValues: 3 });
      expect(snap.datasourceId).toBe(fixture.config.id);
      expect(snap.tables.map((t) => t.name)).toEqual(['customers', 'order_items', 'orders']);

      const customers = table(snap, 'customers');
      expect(customers.columns.map((c) => c.name)).toEqual(['id', 'name', 'email', 'country']);
      const col = (t: TableInfo, n: string) => t.columns.find((c) => c.name === n)!;
      expect(col(customers, 'name').type).toMatch(d.varcharType);
      expect(col(customers, 'name').kind).toBe('text');
      expect(col(customers, 'name').nullable).toBe(false);
      expect(col(customers, 'email').nullable).toBe(true);
      expect(col(customers, 'id').kind).toBe('integer');
      expect(customers.primaryKey).toEqual(['id']);
      // distinct, sorted, non-null, at most the number asked for
      expect(col(customers, 'country').sampleValues).toEqual(['Chile', 'France']);
      expect(col(customers, 'email').sampleValues).toEqual(['ada@example.com', 'cy@example.com']);
      expect(col(customers, 'id').sampleValues).toEqual([1, 2, 3]);

      const orders = table(snap, 'orders');
      expect(col(orders, 'amount').kind).toBe('decimal');
      expect(col(orders, 'amount').sampleValues).toEqual([5, 12.5, 99.99]);
      expect(col(orders, 'placed_at').kind).toBe('timestamp');
      expect(col(orders, 'placed_at').sampleValues[0]).toBe(d.timestampSample ?? '2024-01-02T03:04:05');
      expect(orders.foreignKeys).toEqual([
        { columns: ['customer_id'], refTable: 'customers', refColumns: ['id'] },
      ]);

      const items = table(snap, 'order_items');
      expect(items.primaryKey).toEqual(['order_id', 'line_no']);
      expect(items.foreignKeys).toEqual([{ columns: ['order_id'], refTable: 'orders', refColumns: ['id'] }]);
      for (const t of snap.tables) expect(t.rowCountEstimate).toBe(3);
      expect(snap.schemaVersion).toMatch(/^[0-9a-f]{16}$/);
    });

    it("counts a column's distinct values, most frequent first, whole or sampled", async () => {
      const snap = await adapter.introspect();
      const customers = table(snap, 'customers');
      const whole = await adapter.distinctValues(customers, 'country', { limit: 10, sampleRows: null });
      expect(whole).toEqual([
        { value: 'France', count: 2 },
        { value: 'Chile', count: 1 },
      ]);
      expect(await adapter.distinctValues(customers, 'country', { limit: 1, sampleRows: null })).toEqual([
        { value: 'France', count: 2 },
      ]);
      // Sampled through the dialect's own clause: whatever it draws are stored values with counts.
      const sampled = await adapter.distinctValues(customers, 'email', {
        limit: 10,
        sampleRows: 100,
        tableRows: 3,
      });
      for (const v of sampled) expect(['ada@example.com', 'cy@example.com']).toContain(v.value);
      expect(sampled.every((v) => v.count >= 1)).toBe(true);
    });

    it('binds parameters in its own placeholder style', async () => {
      const result = await adapter.execute(d.byCountry, ['France']);
      expect(result.rows).toEqual([['Ada'], ['Cy']]);
      expect(result.columns).toEqual([{ name: 'name', kind: 'text' }]);
    });

    it('returns JSON-safe cells: big integers as strings, exact decimals as numbers, ISO timestamps, base64 bytes', async () => {
      const result = await adapter.execute(d.values);
      expect(result.columns.map((c) => c.name)).toEqual(['big', 'amount', 'ts', 'bin', 'day']);
      expect(result.rows).toEqual([['9007199254740993', 12.5, '2024-01-02T03:04:05', 'qrs=', '2024-01-02']]);
      expect(JSON.parse(JSON.stringify(result.rows))).toEqual(result.rows);
    });

    const writes = [
      `INSERT INTO customers (id, name, email, country) VALUES (4, 'Di', NULL, 'Peru')`,
      `UPDATE customers SET name = 'Changed'`,
      `DELETE FROM order_items`,
      `CREATE TABLE hacked (a INTEGER)`,
      `DROP TABLE order_items`,
      ...(d.extraWrites ?? []),
    ];
    it.each(writes)('refuses a write sent straight to the database: %s', async (sql) => {
      const failure = await rejectionOf(adapter.execute(sql));
      expect(failure.code).toBe('DATASOURCE_READ_ONLY');
      expect(failure.message).toContain(fixture.config.id);
    });

    it('refuses a second statement smuggled after a query', async () => {
      const failure = await rejectionOf(adapter.execute('SELECT 1; DROP TABLE order_items'));
      expect(['DATASOURCE_QUERY_FAILED', 'DATASOURCE_READ_ONLY']).toContain(failure.code);
    });

    it('does not let one statement make the next one writable', async () => {
      // one connection, so the second statement runs where the first one did
      const single = createAdapter(
        { ...fixture.config, connection: { ...fixture.config.connection, pool_max: 1 } },
        { secrets },
      );
      try {
        if (d.liftReadOnly) await single.execute(d.liftReadOnly).catch(() => undefined);
        const failure = await rejectionOf(single.execute('CREATE TABLE hacked_later (a INTEGER)'));
        expect(failure.code).toBe('DATASOURCE_READ_ONLY');
      } finally {
        await single.close();
      }
    });

    it('left the data untouched after every refused write', async () => {
      expect(await countOf(adapter, 'customers')).toBe(3);
      expect(await countOf(adapter, 'order_items')).toBe(3);
      expect((await adapter.execute(`SELECT name FROM customers ORDER BY id`)).rows).toEqual([
        ['Ada'],
        ['Bo'],
        ['Cy'],
      ]);
      const snap = await adapter.introspect({ sampleValues: 0 });
      expect(snap.tables.map((t) => t.name)).toEqual(['customers', 'order_items', 'orders']);
    });

    it('cancels a slow statement at its timeout and stays usable', async () => {
      const failure = await rejectionOf(adapter.execute(d.slow, [], { timeoutMs: 400 }));
      expect(failure.code).toBe('DATASOURCE_TIMEOUT');
      expect(failure.message).toContain('400 ms');
      await expect(adapter.healthCheck()).resolves.toBeUndefined();
      expect((await adapter.execute(d.byCountry, ['Chile'])).rows).toEqual([['Bo']]);
    });

    it('stops a running statement when the caller aborts', async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 300);
      const failure = await rejectionOf(
        adapter.execute(d.slow, [], { timeoutMs: 20_000, signal: controller.signal }),
      );
      expect(failure.code).toBe('DATASOURCE_ABORTED');
      await expect(adapter.healthCheck()).resolves.toBeUndefined();
    });

    it('streams 100 000 rows in batches, never more than the batch size', async () => {
      const sizes: number[] = [];
      let sum = 0;
      let truncated = false;
      for await (const batch of adapter.stream(d.hundredThousand, [], { batchSize: 10_000 })) {
        sizes.push(batch.rows.length);
        for (const [n] of batch.rows) sum += n as number;
        truncated ||= batch.truncated === true;
      }
      expect(sizes.length).toBeGreaterThanOrEqual(10);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(10_000);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(100_000);
      expect(sum).toBe((100_000 * 100_001) / 2);
      expect(truncated).toBe(false);
    });

    it('stops at maxRows and marks the cut', async () => {
      const batches: ResultBatch[] = [];
      for await (const batch of adapter.stream(d.hundredThousand, [], { batchSize: 10_000, maxRows: 25_000 }))
        batches.push(batch);
      expect(batches.map((b) => b.rows.length)).toEqual([10_000, 10_000, 5_000]);
      expect(batches.map((b) => b.truncated)).toEqual([false, false, true]);
      const whole = await adapter.execute(d.hundredThousand, [], { maxRows: 100_000 });
      expect(whole.rows.length).toBe(100_000);
      expect(whole.truncated).toBe(false);
    });

    it('lets a consumer leave a stream early and reuses the connection', async () => {
      for await (const batch of adapter.stream(d.hundredThousand, [], { batchSize: 1000 })) {
        expect(batch.rows.length).toBe(1000);
        break;
      }
      const controller = new AbortController();
      const failure = await rejectionOf(
        (async () => {
          for await (const _batch of adapter.stream(d.hundredThousand, [], {
            batchSize: 1000,
            signal: controller.signal,
          }))
            controller.abort();
        })(),
      );
      expect(failure.code).toBe('DATASOURCE_ABORTED');
      const concurrent = await Promise.all([1, 2, 3].map(() => adapter.execute(d.byCountry, ['France'])));
      expect(concurrent.map((r) => r.rows.length)).toEqual([2, 2, 2]);
    });

    it('keeps schema_version through data changes and moves it when a column is added', async () => {
      const before = await adapter.introspect();
      expect((await adapter.introspect()).schemaVersion).toBe(before.schemaVersion);
      await adapter.close();

      await fixture.alter(`INSERT INTO customers (id, name, email, country) VALUES (4, 'Di', NULL, 'Peru')`);
      adapter = build(fixture);
      const afterInsert = await adapter.introspect();
      expect(afterInsert.schemaVersion).toBe(before.schemaVersion);
      expect(
        table(afterInsert, 'customers').columns.find((c) => c.name === 'country')?.sampleValues,
      ).toContain('Peru');
      await adapter.close();

      await fixture.alter(`ALTER TABLE customers ADD COLUMN vip BOOLEAN`);
      adapter = build(fixture);
      const altered = await adapter.introspect();
      expect(altered.schemaVersion).not.toBe(before.schemaVersion);
      expect(table(altered, 'customers').columns.map((c) => c.name)).toContain('vip');
    });

    it("reads the database's own table and column comments into the snapshot, and they move schema_version", async () => {
      const before = await adapter.introspect({ sampleValues: 0 });
      const comments = (snap: SchemaSnapshot) =>
        snap.tables.flatMap((t) => [
          ...(t.comment === undefined ? [] : [[t.name, t.comment]]),
          ...t.columns.flatMap((c) => (c.comment === undefined ? [] : [[`${t.name}.${c.name}`, c.comment]])),
        ]);
      expect(comments(before)).toEqual([]);
      await adapter.close();
      if (d.commentDdl === null) {
        // SQLite keeps no comments: the `--` and `/* */` in a CREATE statement are only its text.
        await fixture.alter(
          'CREATE TABLE notes (id INTEGER PRIMARY KEY /* the key */, body TEXT -- what was said\n)',
        );
        adapter = build(fixture);
        const after = await adapter.introspect({ sampleValues: 0 });
        expect(table(after, 'notes').columns.map((c) => c.name)).toEqual(['id', 'body']);
        expect(comments(after)).toEqual([]);
        return;
      }
      for (const sql of d.commentDdl(sqlString)) await fixture.alter(sql);
      adapter = build(fixture);
      const after = await adapter.introspect({ sampleValues: 0 });
      expect(comments(after)).toEqual([
        ['customers', TABLE_COMMENT],
        ['customers.country', COLUMN_COMMENT],
      ]);
      // The column keeps what it was; only its comment is new.
      const country = table(after, 'customers').columns.find((c) => c.name === 'country');
      expect(country).toMatchObject({ kind: 'text', nullable: false });
      expect(after.schemaVersion).not.toBe(before.schemaVersion);
      expect((await adapter.introspect({ sampleValues: 0 })).schemaVersion).toBe(after.schemaVersion);
    });

    it('refuses work once closed', async () => {
      await adapter.close();
      const failure = await rejectionOf(adapter.execute('SELECT 1'));
      expect(failure.code).toBe('DATASOURCE_UNAVAILABLE');
    });
  });
}
