/**
 * Issue 23, item 5: a statement whose caller left while it waited for a connection (or a slot of
 * the datasource) is never sent. Many statements are queued on a small pool, the first ones held
 * on the server, then every caller aborts. Proved from the server where there is one: on
 * PostgreSQL and MariaDB the statements read a table another session has locked, so a statement
 * that reached the server waits there in plain sight (pg_stat_activity, the processlist) with its
 * run's marker; on SQLite and DuckDB the held statements never end by themselves, so a queued one
 * that was still sent would hold its slot for good. In every case the adapter's count of statements
 * sent shows only the ones that got a connection before the abort, and the pool is whole
 * afterwards: a new statement gets a connection at once, with the table still locked.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import { createConnection, type RowDataPacket } from 'mysql2/promise';
import { Client } from 'pg';
import type { DatasourceAdapter } from '../../../src/engine/datasources/adapter';
import { createAdapter } from '../../../src/engine/datasources/factory';
import { rejectionOf, secrets } from '../../support/datasources/adapter-contract';
import { createFixture, MARIADB, PG, uniqueName, type Fixture } from '../../support/datasources/fixtures';

jest.setTimeout(90_000);

const POOL = 4;
const QUEUED = 200;

/** What each engine needs: a way to hold statements on the server and to see which ones got there. */
interface Engine {
  readonly type: 'postgres' | 'mysql' | 'sqlite' | 'duckdb';
  setUp(): Promise<{ adapter: DatasourceAdapter; tearDown(): Promise<void> }>;
  /** SQL of run `i`, carrying `marker` so the server shows whose statement it is. */
  statement(marker: string, i: number): string;
  /** Makes the statements wait on the server (a lock held by another session); undone by the result. */
  hold?(): Promise<() => Promise<void>>;
  /** The markers of statements the server holds now (null: the engine has no server to ask). */
  seenByServer?(marker: string): Promise<number[]>;
}

async function until<T>(what: string, probe: () => Promise<T | null>): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const got = await probe();
    if (got !== null) return got;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting until ${what}`);
}

const runOf = (marker: string) => (text: string) => Number(new RegExp(`${marker}_(\\d+)`).exec(text)?.[1]);

/** The datasource's database on the shared server, with a table `gate` of one row. */
let database = '';

async function onServer(type: 'postgres' | 'mysql'): ReturnType<Engine['setUp']> {
  const fixture: Fixture = await createFixture(type);
  await fixture.alter('CREATE TABLE gate (id INTEGER)');
  await fixture.alter('INSERT INTO gate VALUES (1)');
  database = String(fixture.config.connection.database);
  const adapter = createAdapter(
    { ...fixture.config, connection: { ...fixture.config.connection, pool_max: POOL } },
    { secrets },
  );
  return { adapter, tearDown: () => fixture.drop() };
}

/** Reads `gate`: it waits on the server while another session holds the table locked. */
const gateStatement = (marker: string, i: number) =>
  `SELECT count(*) AS n FROM gate WHERE '${marker}_${i}' <> ''`;

const postgres: Engine = {
  type: 'postgres',
  setUp: () => onServer('postgres'),
  statement: gateStatement,
  async hold() {
    const holder = new Client({ ...PG, database });
    await holder.connect();
    await holder.query('BEGIN; LOCK TABLE gate IN ACCESS EXCLUSIVE MODE');
    return async () => {
      await holder.query('COMMIT');
      await holder.end();
    };
  },
  async seenByServer(marker) {
    const admin = new Client({ ...PG, database: 'postgres' });
    await admin.connect();
    try {
      const r = await admin.query<{ query: string }>(
        `SELECT query FROM pg_stat_activity WHERE datname = $1 AND state = 'active' AND query LIKE $2`,
        [database, `%${marker}%`],
      );
      return r.rows.map((row) => runOf(marker)(row.query));
    } finally {
      await admin.end();
    }
  },
};

const mariadb: Engine = {
  type: 'mysql',
  setUp: () => onServer('mysql'),
  statement: gateStatement,
  async hold() {
    const holder = await createConnection({ ...MARIADB, database });
    await holder.query('LOCK TABLES gate WRITE');
    return async () => {
      await holder.query('UNLOCK TABLES');
      await holder.end();
    };
  },
  async seenByServer(marker) {
    const admin = await createConnection({ ...MARIADB });
    try {
      const [rows] = await admin.query<RowDataPacket[]>(
        'SELECT INFO FROM information_schema.PROCESSLIST WHERE DB = ? AND INFO LIKE ? AND ID <> CONNECTION_ID()',
        [database, `%${marker}%`],
      );
      return rows.map((r) => runOf(marker)(String(r.INFO)));
    } finally {
      await admin.end();
    }
  },
};

/** A statement that runs until it is stopped, marked by a value only it computes with. */
const sqlite: Engine = {
  type: 'sqlite',
  async setUp() {
    const dir = mkdtempSync(join(tmpdir(), 'queued-abort-'));
    const path = join(dir, 'q.sqlite');
    const db = new Database(path);
    db.exec('CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)');
    db.close();
    const adapter = createAdapter(
      { id: 'q_sqlite', type: 'sqlite', connection: { path, pool_max: POOL } },
      { secrets },
    );
    return { adapter, tearDown: async () => rmSync(dir, { recursive: true, force: true }) };
  },
  statement: (marker, i) =>
    `WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*), '${marker}_${i}' FROM r`,
};

const duckdb: Engine = {
  type: 'duckdb',
  async setUp() {
    const dir = mkdtempSync(join(tmpdir(), 'queued-abort-'));
    const path = join(dir, 'q.duckdb');
    const instance = await DuckDBInstance.create(path);
    const conn = await instance.connect();
    await conn.run('CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)');
    conn.closeSync();
    instance.closeSync();
    const adapter = createAdapter(
      { id: 'q_duckdb', type: 'duckdb', connection: { path, pool_max: POOL } },
      { secrets },
    );
    return { adapter, tearDown: async () => rmSync(dir, { recursive: true, force: true }) };
  },
  statement: (marker, i) =>
    `SELECT count(*), '${marker}_${i}' FROM range(1000000000000) a, range(1000000) b WHERE a.range + b.range < 0`,
};

describe.each([postgres, mariadb, sqlite, duckdb])(
  '$type: statements queued for a connection, their callers gone',
  (engine) => {
    let adapter: DatasourceAdapter;
    let tearDown: () => Promise<void>;

    beforeAll(async () => {
      ({ adapter, tearDown } = await engine.setUp());
      await adapter.connect();
    });
    afterAll(async () => {
      await adapter?.close();
      await tearDown?.();
    });

    it(`sends none of ${QUEUED} queued statements once their callers abort, and the pool is whole`, async () => {
      const marker = uniqueName('queued_abort');
      const release = engine.hold ? await engine.hold() : null;
      try {
        const sentBefore = adapter.statementsSent;
        const callers = Array.from({ length: POOL + QUEUED }, () => new AbortController());
        const runs = callers.map((caller, i) =>
          rejectionOf(
            adapter.execute(engine.statement(marker, i), [], { timeoutMs: 60_000, signal: caller.signal }),
          ),
        );
        // The first POOL statements hold every connection; the rest wait for one.
        await until('the pool is busy', async () =>
          adapter.statementsSent - sentBefore === POOL ? true : null,
        );
        const held = engine.seenByServer
          ? await until('the server holds the first statements', async () => {
              const seen = await engine.seenByServer!(marker);
              return seen.length === POOL ? seen : null;
            })
          : [];
        expect(held.every((run) => run < POOL)).toBe(true);

        for (const caller of callers) caller.abort();
        const failures = await Promise.all(runs);
        expect(new Set(failures.map((f) => f.code))).toEqual(new Set(['DATASOURCE_ABORTED']));

        // The pool is whole while the first statements' table is still locked: the connections of
        // the cancelled statements came back, and no queued statement took one.
        const next = await adapter.execute('SELECT 1 AS one', [], { timeoutMs: 5_000 });
        expect(next.rows).toEqual([[1]]);
        expect(adapter.statementsSent - sentBefore).toBe(POOL + 1);
        if (engine.seenByServer) expect(await engine.seenByServer(marker)).toEqual([]);
      } finally {
        await release?.();
      }
      const again = await Promise.all(
        Array.from({ length: POOL }, () => adapter.execute('SELECT 2 AS two', [], { timeoutMs: 5_000 })),
      );
      expect(again.map((r) => r.rows)).toEqual(Array.from({ length: POOL }, () => [[2]]));
      expect(adapter.activeStatements).toBe(0);
    });

    it('opens nothing for a caller that left before the statement started', async () => {
      const sentBefore = adapter.statementsSent;
      const gone = new AbortController();
      gone.abort();
      const failure = await rejectionOf(adapter.execute('SELECT 3 AS three', [], { signal: gone.signal }));
      expect(failure.code).toBe('DATASOURCE_ABORTED');
      // a statement opened anyway would be sent before this one, which starts after it
      expect((await adapter.execute('SELECT 4 AS four')).rows).toEqual([[4]]);
      expect(adapter.statementsSent - sentBefore).toBe(1);
      expect(adapter.activeStatements).toBe(0);
    });
  },
);
