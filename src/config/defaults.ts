/**
 * Fills every default in one place, so the rest of the code reads a complete configuration, and
 * resolves relative file paths against the config file's folder (a config is portable with its data).
 * The defaults themselves are in the schema (`Default(...)` in schema.ts), and so is the type of the
 * result (`ResolvedConfig`).
 */
import { isAbsolute, resolve } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import {
  ConfigSchema,
  DEFAULT_ROW_CAP,
  DEFAULT_TIMEOUT_S,
  type DatasourceConfig,
  type RawConfig,
  type ResolvedConfig,
} from './schema';

export {
  DEFAULT_MAX_AGE_DAYS,
  DEFAULT_POOL_MAX,
  DEFAULT_ROW_CAP,
  DEFAULT_TIMEOUT_S,
  DEFAULT_VERIFIED_DIRECT_THRESHOLD,
} from './schema';

/** Seconds between two purges of old results and traces (`PURGE_INTERVAL_S` overrides it). */
export const DEFAULT_PURGE_INTERVAL_S = 86_400;

export type AppConfig = ResolvedConfig & {
  /** Folder relative paths were resolved against. */
  readonly base_dir: string;
};

/** `raw` must have passed the schema (parseConfig checks it first). */
export function resolveDefaults(raw: RawConfig, baseDir: string): AppConfig {
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(baseDir, p));
  const filled = Value.Default(ConfigSchema, structuredClone(raw)) as ResolvedConfig;
  const { results, traces, knowledge, index } = filled.storage;
  return {
    ...filled,
    datasources: filled.datasources.map((ds) => resolveDatasourcePaths(ds, baseDir)),
    storage: {
      results: { ...results, path: abs(results.path) },
      traces: { ...traces, path: abs(traces.path) },
      knowledge: { path: abs(knowledge.path) },
      index: { ...index, path: abs(index.path) },
    },
    hooks: filled.hooks.map((h) => ({ ...h, module: abs(h.module) })),
    base_dir: baseDir,
  };
}

/** File datasources (duckdb, sqlite) name a path relative to the config file's folder. */
export function resolveDatasourcePaths<D extends DatasourceConfig>(ds: D, baseDir: string): D {
  const path = ds.connection.path;
  if (!path || isAbsolute(path) || path === ':memory:') return ds;
  return { ...ds, connection: { ...ds.connection, path: resolve(baseDir, path) } };
}

export function rowCapOf(ds: DatasourceConfig): number {
  return ds.limits?.row_cap ?? DEFAULT_ROW_CAP;
}

export function timeoutMsOf(ds: DatasourceConfig): number {
  return Math.round((ds.limits?.timeout_s ?? DEFAULT_TIMEOUT_S) * 1000);
}
