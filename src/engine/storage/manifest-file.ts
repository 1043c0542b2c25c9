/**
 * The per-run manifest (`<request_id>/manifest.json`). Updates are read-modify-write, so they are
 * serialised per file inside this process (sub-queries of one run may finish at the same time),
 * and each write is atomic so a reader never sees a half-written manifest.
 */
import { readFile } from 'node:fs/promises';
import { LRUCache } from 'lru-cache';
import { writeFileAtomic } from './atomic-file';
import type { ManifestEntry, ResultManifest } from './result-store';

const pending = new Map<string, Promise<unknown>>();
/**
 * The manifests this process wrote last, by path: the next update of a run's manifest starts from
 * here instead of reading the file back. Only the process running a run writes its manifest.
 */
const written = new LRUCache<string, ResultManifest>({ max: 1024 });

/** Runs `task` after every earlier task queued on the same key has settled. */
async function serialised<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = pending.get(key) ?? Promise.resolve();
  const next = previous.then(task, task);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  pending.set(key, settled);
  try {
    return await next;
  } finally {
    if (pending.get(key) === settled) pending.delete(key);
  }
}

/** The manifest, or null when there is none (or it cannot be parsed: treated as unknown). */
export async function readManifestFile(path: string): Promise<ResultManifest | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = JSON.parse(text) as ResultManifest;
    return parsed && parsed.version === 1 && Array.isArray(parsed.results) ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * Adds or replaces one result's entry. `fresh`: the caller has just made the run's folder, so
 * unless another update of this run came first, there is no manifest to read yet.
 */
export async function upsertManifestEntry(
  path: string,
  ids: { tenantId: string; requestId: string },
  entry: ManifestEntry,
  fresh = false,
): Promise<ResultManifest> {
  return serialised(path, async () => {
    const current = written.get(path) ?? (fresh ? null : await readManifestFile(path));
    const others = (current?.results ?? []).filter((e) => e.result_id !== entry.result_id);
    const manifest: ResultManifest = {
      version: 1,
      tenant_id: ids.tenantId,
      request_id: ids.requestId,
      results: [...others, entry],
    };
    written.delete(path); // if the write fails, the next update reads whatever is on disk
    await writeFileAtomic(path, JSON.stringify(manifest, null, 2) + '\n');
    written.set(path, manifest);
    return manifest;
  });
}
