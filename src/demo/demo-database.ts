/**
 * The embedded default's demo database: built by the service itself on first start, then reused.
 *
 * The build writes a temporary file in the target's folder and renames it into place only when it
 * is complete, so a crash mid-build never leaves a half database at the target. A finished file
 * carries a marker table (`demo_meta.build_info`) with the generator version and sizes; a file of
 * another version or size is rebuilt, a file without the marker is someone else's and is refused.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { EngineError } from '../engine/errors';
import { BUILD_INFO_TABLE, DEMO_TABLES, type DemoTable } from './demo-schema';
import { demoSizesForScale, type DemoSizes } from './demo-sizes';
import { buildInfoStatements, generateSteps } from './generate-steps';

/** Bump when the generated data or schema changes: existing demo files are then rebuilt. */
export const DEMO_GENERATOR_VERSION = '1';

export interface EnsureDemoOptions {
  /** Fraction of the default sizes (default 1: about 1.07 million order lines). Tests use a small scale. */
  readonly scale?: number;
  /** Aborting stops the build; the target is left as it was and the temporary file is removed. */
  readonly signal?: AbortSignal;
  /** Called before each build step with its name (progress logs; tests use it to fail mid-build). */
  readonly onStep?: (step: string) => void;
}

export type DemoRowCounts = Record<DemoTable, number>;

export interface DemoBuildResult {
  /** True when this call built the file; false when a complete one was already there. */
  readonly created: boolean;
  readonly seconds: number;
  readonly path: string;
  readonly tables: DemoRowCounts;
}

const inFlight = new Map<string, Promise<DemoBuildResult>>();

/** Makes sure a complete demo database of the requested size exists at `path`, building it when not. */
export function ensureDemoDatabase(path: string, options: EnsureDemoOptions = {}): Promise<DemoBuildResult> {
  const target = resolve(path);
  // Two callers in one process share one build instead of racing two.
  const running = inFlight.get(target);
  if (running) return running;
  const promise = ensure(target, options).finally(() => inFlight.delete(target));
  inFlight.set(target, promise);
  return promise;
}

async function ensure(target: string, options: EnsureDemoOptions): Promise<DemoBuildResult> {
  const started = performance.now();
  const sizes = demoSizesForScale(options.scale ?? 1);
  const elapsed = () => Math.round(performance.now() - started) / 1000;

  const existing = await readBuildInfo(target);
  if (existing.state === 'complete' && sameSizes(existing.sizes, sizes)) {
    return { created: false, seconds: elapsed(), path: target, tables: existing.rowCounts };
  }
  if (existing.state === 'foreign') {
    throw new EngineError(
      'DEMO_PATH_OCCUPIED',
      `${target} is a DuckDB database that the demo generator did not make (no ${BUILD_INFO_TABLE} table); ` +
        'move it away or point the demo datasource at another path',
      { path: target },
    );
  }

  const temporary = `${target}.building-${process.pid}-${randomBytes(4).toString('hex')}`;
  let tables: DemoRowCounts;
  try {
    await mkdir(dirname(target), { recursive: true });
    await removeStaleBuilds(target);
    tables = await buildInto(temporary, sizes, options);
    // A write-ahead log beside the target belongs to the file being replaced: never replay it on the new one.
    await rm(`${target}.wal`, { force: true });
    await rename(temporary, target);
  } catch (error) {
    await removeBuildFiles(temporary);
    throw asBuildError(error, target, options.signal);
  }
  return { created: true, seconds: elapsed(), path: target, tables };
}

async function buildInto(file: string, sizes: DemoSizes, options: EnsureDemoOptions): Promise<DemoRowCounts> {
  throwIfAborted(options.signal);
  const instance = await DuckDBInstance.create(file);
  let connection: DuckDBConnection | undefined;
  const interrupt = () => connection?.interrupt();
  options.signal?.addEventListener('abort', interrupt);
  let current = 'connect';
  try {
    connection = await instance.connect();
    const steps = generateSteps(sizes);
    for (const step of steps) {
      current = step.name;
      throwIfAborted(options.signal);
      options.onStep?.(step.name);
      for (const sql of step.statements) await connection.run(sql);
    }
    current = 'build_info';
    throwIfAborted(options.signal);
    options.onStep?.(current);
    const rowCounts = await countRows(connection);
    const info = {
      generator_version: DEMO_GENERATOR_VERSION,
      sizes: JSON.stringify(sizes),
      row_counts: JSON.stringify(rowCounts),
      complete: 'true',
    };
    for (const sql of buildInfoStatements(info)) await connection.run(sql);
    await connection.run('CHECKPOINT');
    return rowCounts;
  } catch (error) {
    throw error instanceof EngineError ? error : new StepError(current, error);
  } finally {
    options.signal?.removeEventListener('abort', interrupt);
    connection?.closeSync();
    instance.closeSync();
  }
}

class StepError extends Error {
  constructor(
    readonly step: string,
    readonly reason: unknown,
  ) {
    super(reason instanceof Error ? reason.message : String(reason));
  }
}

async function countRows(connection: DuckDBConnection): Promise<DemoRowCounts> {
  const sql = DEMO_TABLES.map((t) => `SELECT '${t}' AS name, count(*)::INTEGER AS n FROM ${t}`).join(
    ' UNION ALL ',
  );
  const reader = await connection.runAndReadAll(sql);
  const counts = {} as DemoRowCounts;
  for (const row of reader.getRowObjectsJS()) counts[row.name as DemoTable] = Number(row.n);
  return counts;
}

type ExistingState =
  | { readonly state: 'absent' }
  | { readonly state: 'foreign' }
  | { readonly state: 'outdated' }
  | { readonly state: 'complete'; readonly sizes: DemoSizes; readonly rowCounts: DemoRowCounts };

/** What is at the target now. Only a file that cannot be opened at all is an error. */
async function readBuildInfo(target: string): Promise<ExistingState> {
  try {
    await stat(target);
  } catch {
    return { state: 'absent' };
  }
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(target, { access_mode: 'READ_ONLY' });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const locked = /lock/i.test(reason);
    throw new EngineError(
      locked ? 'DEMO_DATABASE_LOCKED' : 'DEMO_DATABASE_UNREADABLE',
      locked
        ? `the demo database ${target} is open for writing in another process: ${reason}`
        : `the demo database ${target} cannot be opened (${reason}); delete it and it will be rebuilt`,
      { path: target },
    );
  }
  try {
    const connection = await instance.connect();
    try {
      const [schemaName, tableName] = BUILD_INFO_TABLE.split('.');
      const known = await connection.runAndReadAll(
        'SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE schema_name = $1 AND table_name = $2',
        [schemaName ?? '', tableName ?? ''],
      );
      if (Number(known.getRowObjectsJS()[0]?.n ?? 0) === 0) return { state: 'foreign' };
      const reader = await connection.runAndReadAll(`SELECT key, value FROM ${BUILD_INFO_TABLE}`);
      const info = new Map(reader.getRowObjectsJS().map((r) => [r.key as string, r.value as string]));
      if (info.get('complete') !== 'true' || info.get('generator_version') !== DEMO_GENERATOR_VERSION) {
        return { state: 'outdated' };
      }
      return {
        state: 'complete',
        sizes: JSON.parse(info.get('sizes') ?? '{}') as DemoSizes,
        rowCounts: JSON.parse(info.get('row_counts') ?? '{}') as DemoRowCounts,
      };
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}

function sameSizes(a: DemoSizes, b: DemoSizes): boolean {
  return a.customers === b.customers && a.products === b.products && a.orders === b.orders;
}

/** Temporary files of builds whose process is gone (a crash or a kill mid-build). */
async function removeStaleBuilds(target: string): Promise<void> {
  const prefix = `${basename(target)}.building-`;
  const folder = dirname(target);
  for (const name of await readdir(folder)) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) continue;
    await rm(join(folder, name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The database file, its write-ahead log and DuckDB's spill folder. */
async function removeBuildFiles(file: string): Promise<void> {
  await Promise.all([file, `${file}.wal`, `${file}.tmp`].map((f) => rm(f, { recursive: true, force: true })));
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new EngineError('DEMO_BUILD_ABORTED', 'the demo database build was aborted');
}

function asBuildError(error: unknown, target: string, signal: AbortSignal | undefined): Error {
  if (error instanceof EngineError) return error;
  if (signal?.aborted) return new EngineError('DEMO_BUILD_ABORTED', 'the demo database build was aborted');
  const step = error instanceof StepError ? error.step : 'file';
  const reason = error instanceof Error ? error.message : String(error);
  return new EngineError(
    'DEMO_BUILD_FAILED',
    `building the demo database ${target} failed at step '${step}': ${reason}`,
    {
      path: target,
      step,
    },
  );
}
