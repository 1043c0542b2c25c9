/**
 * A server connection killed while its statement runs (an operator's KILL, a server restart, a
 * proxy dropping it) ends the statement at once with DATASOURCE_UNAVAILABLE, its pool slot comes
 * back, and the next statement runs: against real MariaDB and PostgreSQL servers (issue 19, item 1).
 */
import { createConnection } from 'mysql2/promise';
import { Client } from 'pg';
import type { DatasourceAdapter } from '../../../src/engine/datasources/adapter';
import { build, rejectionOf } from '../../support/datasources/adapter-contract';
import { createFixture, MARIADB, PG, type Fixture } from '../../support/datasources/fixtures';

jest.setTimeout(30_000);

const SERVERS = [
  {
    type: 'mysql' as const,
    slow: 'SELECT SLEEP(20) AS s',
    /** Kills the connection running the slow statement from a second session; true once one was killed. */
    kill: async (): Promise<boolean> => {
      const admin = await createConnection({ ...MARIADB });
      try {
        const [rows] = await admin.query(
          "SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE '%SLEEP(20) AS s%' AND ID <> CONNECTION_ID()",
        );
        const ids = (rows as { ID: number }[]).map((r) => r.ID);
        for (const id of ids) await admin.query(`KILL ${Number(id)}`);
        return ids.length > 0;
      } finally {
        await admin.end();
      }
    },
  },
  {
    type: 'postgres' as const,
    slow: 'SELECT pg_sleep(20) AS s',
    // The adapter reads through a cursor: the backend shows FETCH, so it is found by its database.
    kill: async (database: string): Promise<boolean> => {
      const admin = new Client({ ...PG, database: 'postgres' });
      await admin.connect();
      try {
        const r = await admin.query(
          "SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE datname = $1 AND state = 'active' AND pid <> pg_backend_pid()",
          [database],
        );
        return r.rowCount! > 0;
      } finally {
        await admin.end();
      }
    },
  },
];

async function killWhenRunning(
  kill: (database: string) => Promise<boolean>,
  database: string,
): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await kill(database)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the slow statement never showed up on the server');
}

describe.each(SERVERS)('$type: a connection killed mid-statement', ({ type, slow, kill }) => {
  let fixture: Fixture;
  let adapter: DatasourceAdapter;

  beforeAll(async () => {
    fixture = await createFixture(type);
    adapter = build({
      ...fixture,
      config: {
        ...fixture.config,
        connection: { ...fixture.config.connection, pool_max: 2 },
      },
    });
    await adapter.connect();
  });
  afterAll(async () => {
    await adapter?.close();
    await fixture?.drop();
  });

  it('ends the statement with DATASOURCE_UNAVAILABLE and returns the slot, kill after kill', async () => {
    // More kills than the pool has slots: a slot that never came back would starve the next statement.
    for (let round = 0; round < 4; round++) {
      const running = rejectionOf(adapter.execute(slow, [], { timeoutMs: 15_000 }));
      await killWhenRunning(kill, String(fixture.config.connection.database));
      // The whole failure in the assertion, so a wrong code shows the message that came with it.
      expect(await running).toEqual({ code: 'DATASOURCE_UNAVAILABLE', message: expect.any(String) });
    }
    const next = await adapter.execute('SELECT COUNT(*) AS n FROM customers', [], { timeoutMs: 2_000 });
    expect(Number(next.rows[0]?.[0])).toBe(3);
  });
});
