/** The adapter's handle on one runner process (see `sqlite-runner-main.ts` for why a process). */
import { fork, type ChildProcess } from 'node:child_process';
import { extname, join } from 'node:path';
import type { RunnerHello, RunnerReply, RunnerRequest } from './sqlite-protocol';

type Ok = Extract<RunnerReply, { ok: true }>;
type Pending = { resolve: (reply: Ok) => void; reject: (error: Error) => void };
type RequestBody = RunnerRequest extends infer R ? (R extends RunnerRequest ? Omit<R, 'id'> : never) : never;

/** A runner error keeps SQLite's code (SQLITE_READONLY...) for the adapter's classification. */
export class RunnerError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

export class SqliteRunner {
  private seq = 0;
  private readonly pending = new Map<number, Pending>();
  private alive = true;

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (reply: RunnerReply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (reply.ok) waiter.resolve(reply);
      else waiter.reject(new RunnerError(reply.error.message, reply.error.code));
    });
    child.on('exit', () => this.stopped('the SQLite runner process stopped'));
    child.on('error', (e) => this.stopped(`the SQLite runner process failed: ${e.message}`));
  }

  /** Starts a runner process; rejects when it cannot start (better-sqlite3 failing to load, say). */
  static start(): Promise<SqliteRunner> {
    const main = join(__dirname, `sqlite-runner-main${extname(__filename)}`);
    // From TypeScript sources (tests, bench) the child compiles on the fly; the build runs .js.
    const execArgv = extname(__filename) === '.ts' ? ['-r', require.resolve('@swc-node/register')] : [];
    const child = fork(main, [], {
      execArgv,
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      if (stderr.length < 4000) stderr += d.toString();
    });
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) =>
        reject(
          new RunnerError(
            `the SQLite runner exited (code ${code}) before it was ready ${stderr.trim().slice(0, 500)}`,
          ),
        );
      child.once('exit', onExit);
      child.once('message', (hello: RunnerHello) => {
        child.off('exit', onExit);
        if (hello.ready) resolve(new SqliteRunner(child));
        else {
          child.kill('SIGKILL');
          reject(new RunnerError(hello.error.message, hello.error.code));
        }
      });
    });
  }

  get isAlive(): boolean {
    return this.alive;
  }

  request(body: RequestBody): Promise<Ok> {
    if (!this.alive) return Promise.reject(new RunnerError('the SQLite runner process stopped'));
    const id = ++this.seq;
    return new Promise<Ok>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const request: RunnerRequest = { ...body, id };
      this.child.send(request);
    });
  }

  /** Stops a statement that runs too long: the only way to stop better-sqlite3 mid-statement. */
  kill(): void {
    if (!this.alive) return;
    this.child.kill('SIGKILL');
    this.stopped('the SQLite runner process was stopped');
  }

  private stopped(reason: string): void {
    this.alive = false;
    for (const waiter of this.pending.values()) waiter.reject(new RunnerError(reason));
    this.pending.clear();
  }
}
