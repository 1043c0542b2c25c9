/**
 * Retention: deletes result folders (`<results>/<tenant>/<request_id>/`) and trace files
 * (`<traces>/<tenant>/*.json`, and leftover temporary files) older than each store's
 * `max_age_days`. A folder's age is its modification time, which the last result renamed into it
 * sets. Nothing is thrown: failures are returned for the caller to log, because a
 * failed purge must never stop the server.
 */
import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

import { DEFAULT_MAX_AGE_DAYS } from '../../config/schema';

export { DEFAULT_MAX_AGE_DAYS };
const DAY_MS = 24 * 60 * 60 * 1000;

export interface PurgeStoreOptions {
  readonly path: string;
  /** Default 30. */
  readonly maxAgeDays?: number;
}

export interface PurgeOptions {
  readonly results?: PurgeStoreOptions;
  readonly traces?: PurgeStoreOptions;
}

export interface PurgeReport {
  readonly removed: { readonly results: number; readonly traces: number };
  /** One line per entry that could not be read or removed. */
  readonly errors: string[];
}

export async function purge(options: PurgeOptions, now: Date = new Date()): Promise<PurgeReport> {
  const errors: string[] = [];
  const results = options.results ? await purgeStore(options.results, now, 'directory', errors) : 0;
  const traces = options.traces ? await purgeStore(options.traces, now, 'file', errors) : 0;
  return { removed: { results, traces }, errors };
}

/** Removes the `kind` entries two levels down (`<root>/<tenant>/<entry>`) older than the cutoff. */
async function purgeStore(
  store: PurgeStoreOptions,
  now: Date,
  kind: 'directory' | 'file',
  errors: string[],
): Promise<number> {
  const maxAgeDays = store.maxAgeDays ?? DEFAULT_MAX_AGE_DAYS;
  const cutoff = now.getTime() - maxAgeDays * DAY_MS;
  let removed = 0;
  for (const tenantDir of await listDirs(store.path, errors)) {
    let names: string[];
    try {
      names = await readdir(tenantDir);
    } catch (err) {
      errors.push(describe('read', tenantDir, err));
      continue;
    }
    for (const name of names) {
      const entry = join(tenantDir, name);
      try {
        const info = await lstat(entry);
        // Traces are files; stray temporary files count as traces so a crash leaves no litter.
        const matches = kind === 'directory' ? info.isDirectory() : info.isFile();
        if (!matches || info.mtimeMs >= cutoff) continue;
        await rm(entry, { recursive: kind === 'directory', force: true });
        removed++;
      } catch (err) {
        errors.push(describe('remove', entry, err));
      }
    }
  }
  return removed;
}

/** Tenant folders under a store root; a root that does not exist yet holds nothing to purge. */
async function listDirs(root: string, errors: string[]): Promise<string[]> {
  try {
    const entries = await readdir(root, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory()).map((e) => join(root, e.name));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') errors.push(describe('read', root, err));
    return [];
  }
}

function describe(action: string, path: string, err: unknown): string {
  return `could not ${action} ${path}: ${err instanceof Error ? err.message : String(err)}`;
}
