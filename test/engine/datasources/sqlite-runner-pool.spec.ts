/**
 * SQLite datasources share one pool of runner processes (sqlite-runner-pool.ts). Real files, real
 * runner processes: each statement reads its own datasource's file, a statement stopped at its
 * timeout stops nobody else's, `pool_max` still caps each datasource, and closing the last
 * datasource stops every runner.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { DatasourceAdapter } from '../../../src/engine/datasources/adapter';
import { createAdapter } from '../../../src/engine/datasources/factory';
import { sqliteRunners } from '../../../src/engine/datasources/sqlite/sqlite-runner-pool';
import { rejectionOf, secrets } from '../../support/datasources/adapter-contract';

const SLOW = 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r';

let dir: string;
const open: DatasourceAdapter[] = [];
/** Runner processes alive before the test (another suite's, in the same Jest process): not counted. */
let earlier = new Set<number>();

function databaseFile(name: string, city: string): string {
  const path = join(dir, `${name}.sqlite`);
  const db = new Database(path);
  db.exec(`CREATE TABLE place (city TEXT); INSERT INTO place VALUES ('${city}')`);
  db.close();
  return path;
}

function adapter(id: string, path: string, poolMax?: number): DatasourceAdapter {
  const a = createAdapter(
    { id, type: 'sqlite', connection: { path, ...(poolMax ? { pool_max: poolMax } : {}) } },
    { secrets },
  );
  open.push(a);
  return a;
}

/** Runner processes this test started that are alive now. */
function runnerProcesses(): number[] {
  return allRunnerProcesses().filter((pid) => !earlier.has(pid));
}

/** This process's children running the runner's code, alive now. */
function allRunnerProcesses(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      // fields[0] is the state (Z: exited, not yet reaped), fields[1] the parent's pid
      if (Number(fields[1]) === process.pid && fields[0] !== 'Z' && cmdline.includes('sqlite-runner-main'))
        pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

async function eventually(check: () => boolean, ms = 3000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'nl2sql-sqlite-pool-'));
  earlier = new Set(allRunnerProcesses());
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((a) => a.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe('SQLite runner processes shared by every SQLite datasource', () => {
  it('answers each datasource from its own file, one runner serving both in turn', async () => {
    const lima = adapter('lima', databaseFile('lima', 'Lima'));
    const oslo = adapter('oslo', databaseFile('oslo', 'Oslo'));
    const sql = 'SELECT city FROM place';
    expect((await lima.execute(sql)).rows).toEqual([['Lima']]);
    expect((await oslo.execute(sql)).rows).toEqual([['Oslo']]);
    expect((await lima.execute(sql)).rows).toEqual([['Lima']]);
    expect((await oslo.execute(sql)).rows).toEqual([['Oslo']]);
    // One statement at a time: the same runner took all four, no second process was started.
    expect(sqliteRunners.idleCount).toBe(1);
    expect(runnerProcesses()).toHaveLength(1);
  });

  it('stops a statement at its timeout without touching another datasource running at the same time', async () => {
    const lima = adapter('lima', databaseFile('lima', 'Lima'));
    const oslo = adapter('oslo', databaseFile('oslo', 'Oslo'));
    await Promise.all([lima.connect(), oslo.connect()]);
    const slow = rejectionOf(lima.execute(SLOW, [], { timeoutMs: 700 }));
    // Oslo's statements run while Lima's is stuck in SQLite, and keep running after it is killed.
    expect((await oslo.execute('SELECT city FROM place')).rows).toEqual([['Oslo']]);
    expect((await slow).code).toBe('DATASOURCE_TIMEOUT');
    expect((await oslo.execute('SELECT city FROM place')).rows).toEqual([['Oslo']]);
    expect((await lima.execute('SELECT city FROM place')).rows).toEqual([['Lima']]);
  });

  it("keeps each datasource's pool_max: a busy datasource waits for its own slot, not another's", async () => {
    const lima = adapter('lima', databaseFile('lima', 'Lima'), 1);
    const oslo = adapter('oslo', databaseFile('oslo', 'Oslo'), 1);
    await Promise.all([lima.connect(), oslo.connect()]);
    const order: string[] = [];
    const first = rejectionOf(lima.execute(SLOW, [], { timeoutMs: 800 })).then((f) => {
      order.push(`lima slow ${f.code}`);
    });
    const second = lima.execute('SELECT city FROM place').then((r) => {
      order.push(`lima ${String(r.rows[0]?.[0])}`);
    });
    const other = oslo.execute('SELECT city FROM place').then((r) => {
      order.push(`oslo ${String(r.rows[0]?.[0])}`);
    });
    await Promise.all([first, second, other]);
    // Lima's second statement had to wait for its only slot; Oslo did not wait for Lima.
    expect(order).toEqual(['oslo Oslo', 'lima slow DATASOURCE_TIMEOUT', 'lima Lima']);
  });

  it('refuses a file that is no database with SQLite’s reason, and the other datasources go on', async () => {
    const oslo = adapter('oslo', databaseFile('oslo', 'Oslo'));
    const junk = join(dir, 'junk.sqlite');
    writeFileSync(junk, 'this is not a database file, only text long enough to have a header'.repeat(20));
    const bad = adapter('junk', junk);
    const failure = await rejectionOf(bad.connect());
    expect(failure.code).toBe('DATASOURCE_UNAVAILABLE');
    expect(failure.message).toMatch(/not a database/i);
    expect((await oslo.execute('SELECT city FROM place')).rows).toEqual([['Oslo']]);
  });

  it('stops every runner process when the last SQLite datasource closes', async () => {
    const lima = adapter('lima', databaseFile('lima', 'Lima'));
    const oslo = adapter('oslo', databaseFile('oslo', 'Oslo'));
    // Two statements at once need two runners.
    await Promise.all([lima.execute('SELECT city FROM place'), oslo.execute('SELECT city FROM place')]);
    expect(runnerProcesses().length).toBeGreaterThanOrEqual(1);
    await lima.close();
    expect(sqliteRunners.idleCount).toBeGreaterThanOrEqual(1); // Oslo still uses them
    expect((await oslo.execute('SELECT city FROM place')).rows).toEqual([['Oslo']]);
    await oslo.close();
    expect(sqliteRunners.idleCount).toBe(0);
    expect(await eventually(() => runnerProcesses().length === 0)).toBe(true);
  });
});
