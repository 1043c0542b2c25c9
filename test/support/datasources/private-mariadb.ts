/**
 * A MariaDB server of the test's own, on a free loopback port with its own data directory, started
 * with settings the shared server must never be given (a hostile `sql_mode`, say). Made with
 * `mariadb-install-db` into a temp folder and run as a child `mariadbd` process, stopped (by its
 * pid) and removed by `stop()`. Authentication is off (`--skip-grant-tables`): it listens on
 * 127.0.0.1 only and lives for one test file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createConnection, type Connection } from 'mysql2/promise';

const run = promisify(execFile);

export interface PrivateMariadbOptions {
  /** The server's global `sql_mode` (`--sql-mode`). */
  readonly sqlMode?: string;
  /** Turns on performance_schema (statement digests show what the server parsed). */
  readonly performanceSchema?: boolean;
}

export interface PrivateMariadb {
  readonly host: '127.0.0.1';
  readonly port: number;
  readonly user: 'root';
  /** A connection to the server (no database selected); the caller ends it. */
  connect(database?: string): Promise<Connection>;
  stop(): Promise<void>;
}

const STARTUP_LIMIT_MS = 60_000;

export async function startPrivateMariadb(options: PrivateMariadbOptions = {}): Promise<PrivateMariadb> {
  const dir = mkdtempSync(join(tmpdir(), 'mdb-'));
  const datadir = join(dir, 'data');
  const user = userInfo().username;
  // --no-defaults: the machine's my.cnf (user, paths, ports of the shared server) must not apply.
  const small = ['--innodb-log-file-size=8M', '--innodb-buffer-pool-size=16M'];
  try {
    await run('mariadb-install-db', [
      '--no-defaults',
      `--datadir=${datadir}`,
      `--user=${user}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      ...small,
    ]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`mariadb-install-db failed: ${(error as Error).message}`, { cause: error });
  }
  const port = await freePort();
  const errorLog = join(dir, 'error.log');
  const server = spawn(
    'mariadbd',
    [
      '--no-defaults',
      `--user=${user}`,
      `--datadir=${datadir}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--socket=${join(dir, 'mariadb.sock')}`,
      `--pid-file=${join(dir, 'mariadb.pid')}`,
      `--log-error=${errorLog}`,
      '--skip-grant-tables',
      '--skip-log-bin',
      `--performance-schema=${options.performanceSchema ? 'ON' : 'OFF'}`,
      ...(options.sqlMode !== undefined ? [`--sql-mode=${options.sqlMode}`] : []),
      ...small,
    ],
    { stdio: 'ignore' },
  );
  const stop = () => stopServer(server, dir);
  try {
    await waitUntilUp(server, port, errorLog);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    host: '127.0.0.1',
    port,
    user: 'root',
    connect: (database) =>
      createConnection({ host: '127.0.0.1', port, user: 'root', ...(database ? { database } : {}) }),
    stop,
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitUntilUp(server: ChildProcess, port: number, errorLog: string): Promise<void> {
  const deadline = Date.now() + STARTUP_LIMIT_MS;
  let exited = false;
  server.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`mariadbd exited at start:\n${tail(errorLog)}`);
    try {
      const c = await createConnection({ host: '127.0.0.1', port, user: 'root', connectTimeout: 1000 });
      await c.end();
      return;
    } catch {
      if (Date.now() > deadline)
        throw new Error(`mariadbd did not answer on port ${port}:\n${tail(errorLog)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function stopServer(server: ChildProcess, dir: string): Promise<void> {
  if (server.exitCode === null && server.signalCode === null) {
    const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
    server.kill('SIGTERM');
    const stopped = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), 20_000)),
    ]);
    if (!stopped) {
      server.kill('SIGKILL');
      await exited;
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

function tail(path: string): string {
  try {
    return readFileSync(path, 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '(no error log)';
  }
}
