/**
 * Starts the real service in this process for the e2e bench: the real engine and AppModule on
 * 127.0.0.1 (ephemeral port), every database of a Spider-layout folder as a read-only `sqlite`
 * datasource named by its db id, storage in a temporary folder (removed on close) of `storageParent`
 * (default: the OS temp folder), and the llm
 * section pointing at the oracle model server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createApp } from '../../src/app.factory';
import { parseConfig } from '../../src/config/loader';
import type { SchemaSnapshot } from '../../src/engine/datasources/schema';
import { engineHandle, type Engine } from '../../src/create-engine';
import { DatasourceRegistry } from '../../src/engine/datasources/registry';

export interface ServiceOptions {
  /** db id -> SQLite file. The files are opened read-only by the sqlite adapter. */
  readonly databases: ReadonlyMap<string, string>;
  /** OpenAI-wire base URL of the oracle (http://127.0.0.1:PORT/v1). */
  readonly modelBaseUrl: string;
  /** settings.pipeline.sample_rows: how many rows a response carries inline (at most 1000). */
  readonly sampleRows: number;
  /** Row cap of every datasource: above the largest gold result, so nothing is cut. */
  readonly rowCap: number;
  /** Where the run's temporary storage folder goes (results, traces, index); default the OS temp folder. */
  readonly storageParent?: string;
  /** The planner's answer: a SQL draft (the service's default) or the plan itself. */
  readonly plannerFormat?: 'sql' | 'plan';
  /** An llm section to use instead of the oracle's (a real model, for the accuracy bench). */
  readonly llm?: Record<string, unknown>;
  /** settings.pipeline.max_retries (default 0: every run asks the planner once). */
  readonly maxRetries?: number;
}

export interface RunningService {
  readonly url: string;
  /** The storage folder (results, traces and index below it), removed on close. */
  readonly storageDir: string;
  readonly engine: Engine;
  snapshot(dbId: string): SchemaSnapshot | null;
  close(): Promise<void>;
}

/** The bench's config: everything else is the service's defaults. */
export function benchConfig(opts: ServiceOptions, dir: string): Record<string, unknown> {
  return {
    api: { role: 'analyst' },
    datasources: [...opts.databases].map(([id, path]) => ({
      id,
      type: 'sqlite',
      connection: { path },
      limits: { row_cap: opts.rowCap },
    })),
    llm: opts.llm
      ? { ...opts.llm, planner_format: opts.plannerFormat ?? opts.llm.planner_format ?? 'sql' }
      : {
          provider: 'openai_compatible',
          model: 'oracle',
          base_url: opts.modelBaseUrl,
          api_key: 'oracle-no-key',
          planner_format: opts.plannerFormat ?? 'sql',
        },
    storage: {
      results: { path: join(dir, 'results') },
      traces: { path: join(dir, 'traces') },
      index: { path: join(dir, 'index') },
    },
    settings: {
      // No plan cache: every run of every pass asks the planner, so passes measure the same work.
      pipeline: { sample_rows: opts.sampleRows, plan_cache_size: 0, max_retries: opts.maxRetries ?? 0 },
    },
  };
}

export async function startService(opts: ServiceOptions): Promise<RunningService> {
  const dir = mkdtempSync(join(opts.storageParent ?? tmpdir(), 'nl2sql-bench-e2e-'));
  let app: NestExpressApplication | null = null;
  try {
    const config = parseConfig(benchConfig(opts, dir), 'e2e bench config', { baseDir: dir });
    app = await createApp(config, { env: process.env });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    const started = app;
    const engine = engineHandle(app);
    const datasources = engine.get(DatasourceRegistry);
    return {
      url: `http://127.0.0.1:${port}`,
      storageDir: dir,
      engine,
      snapshot: (dbId) => datasources.get(dbId)?.snapshot ?? null,
      close: async () => {
        await started.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await app?.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
