/**
 * Starts the real application (real engine, real AppModule, real HTTP on an ephemeral port) from a
 * config object, for e2e tests. `listen: 'unix'` serves on a Unix socket instead, whose clients
 * have no IP address: the service must treat them as non-loopback.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import Database from 'better-sqlite3';
import { createApp } from '../../src/app.factory';
import { parseConfig } from '../../src/config/loader';
import { engineHandle, type Engine } from '../../src/create-engine';

export interface RunningApp {
  readonly url: string;
  readonly socketPath: string | null;
  readonly engine: Engine;
  readonly app: NestExpressApplication;
  close(): Promise<void>;
}

export async function startApp(
  raw: Record<string, unknown>,
  opts: { listen?: 'tcp' | 'unix'; env?: NodeJS.ProcessEnv } = {},
): Promise<RunningApp> {
  const dir = mkdtempSync(join(tmpdir(), 'nl2sql-app-'));
  const config = parseConfig(
    {
      storage: {
        results: { path: join(dir, 'results') },
        traces: { path: join(dir, 'traces') },
        index: { path: join(dir, 'index') },
      },
      ...raw,
      ...(isObject(raw.llm) ? { llm: withTestPlannerFormat(raw.llm) } : {}),
    },
    'test config',
    { baseDir: dir },
  );
  const app = await createApp(config, { env: opts.env ?? process.env });
  // The engine's start-up checks run here; a failure has closed what they opened.
  await app.init();
  const engine = engineHandle(app);
  let url: string;
  let socketPath: string | null = null;
  if (opts.listen === 'unix') {
    socketPath = join(dir, 'http.sock');
    await app.listen(socketPath);
    url = 'http://localhost';
  } else {
    await app.listen(0, '127.0.0.1');
    const address = app.getHttpServer().address() as { port: number };
    url = `http://127.0.0.1:${address.port}`;
  }
  return {
    url,
    socketPath,
    engine,
    app,
    close: () => app.close(),
  };
}

/** A small SQLite file with two related tables, for tests that need a ready datasource. */
export function makeSqliteFixture(dir = mkdtempSync(join(tmpdir(), 'nl2sql-fx-'))): string {
  const path = join(dir, 'shop.sqlite');
  const db = new Database(path);
  db.exec(`
    CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT);
    CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id), amount REAL);
    INSERT INTO customers VALUES (1, 'Ada', 'France'), (2, 'Linus', 'Finland');
    INSERT INTO orders VALUES (1, 1, 10.5), (2, 1, 20), (3, 2, 7.25);
  `);
  db.close();
  return path;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Most e2e tests script the planner's answer as a plan (`query_plan`), so their apps run the plan
 * format unless the test chooses one; the SQL-draft format (the service's default) has e2e tests
 * of its own that set `planner_format` explicitly.
 */
function withTestPlannerFormat(llm: Record<string, unknown>): Record<string, unknown> {
  return 'planner_format' in llm ? llm : { ...llm, planner_format: 'plan' };
}
