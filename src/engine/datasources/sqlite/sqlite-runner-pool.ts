/**
 * The runner processes of every SQLite datasource in this process, shared. A runner holds one
 * statement at a time and keeps a connection to each file it has served, so any idle runner can
 * take any datasource's statement. Sharing keeps the process count near the number of statements
 * that really run at once (ten datasources with four runners each were forty node processes) and
 * lets each runner's compiled code warm up on all the traffic instead of a fortieth of it.
 *
 * Idle runners are handed out most recently used first, so the busy few stay warm and the rest go
 * idle; a runner idle for IDLE_MS is stopped, down to MIN_IDLE. How many statements of one
 * datasource run at once is still capped by that datasource's own `pool_max` (the adapter's
 * semaphore); the pool itself adds no cap, so a slow datasource never holds up another's statements.
 */
import { SqliteRunner } from './sqlite-runner';

const IDLE_MS = 60_000;
const MIN_IDLE = 1;

interface IdleRunner {
  readonly runner: SqliteRunner;
  readonly since: number;
}

export class SqliteRunnerPool {
  /** Oldest first: acquire takes from the end. */
  private idle: IdleRunner[] = [];
  private users = 0;
  private reaper: NodeJS.Timeout | null = null;

  /** A datasource starts using the pool; runners live while any datasource does. */
  retain(): void {
    this.users++;
    this.reaper ??= setInterval(() => this.reap(), IDLE_MS / 2).unref();
  }

  /** A datasource stops using the pool; the last one out stops every idle runner. */
  releaseUser(): void {
    this.users = Math.max(0, this.users - 1);
    if (this.users) return;
    for (const { runner } of this.idle) runner.kill();
    this.idle = [];
    if (this.reaper) clearInterval(this.reaper);
    this.reaper = null;
  }

  async acquire(): Promise<SqliteRunner> {
    for (let held = this.idle.pop(); held; held = this.idle.pop()) {
      if (held.runner.isAlive) return held.runner;
    }
    return SqliteRunner.start();
  }

  /** Takes a runner back after its statement; a killed one (timeout, cancel) is dropped. */
  giveBack(runner: SqliteRunner): void {
    if (!runner.isAlive) return;
    if (!this.users) {
      runner.kill();
      return;
    }
    this.idle.push({ runner, since: Date.now() });
  }

  /** Idle runners close their connection to `path` (a datasource removed at run time). */
  forget(path: string): void {
    for (const { runner } of this.idle) runner.request({ op: 'detach', path }).catch(() => undefined);
  }

  /** Runners alive and idle now (tests). */
  get idleCount(): number {
    return this.idle.filter((i) => i.runner.isAlive).length;
  }

  private reap(): void {
    const cutoff = Date.now() - IDLE_MS;
    const keep: IdleRunner[] = [];
    // The oldest come first; the newest MIN_IDLE are kept whatever their age.
    this.idle.forEach((held, i) => {
      if (!held.runner.isAlive) return;
      if (held.since < cutoff && i < this.idle.length - MIN_IDLE) held.runner.kill();
      else keep.push(held);
    });
    this.idle = keep;
  }
}

/** The one pool of this process. */
export const sqliteRunners = new SqliteRunnerPool();
