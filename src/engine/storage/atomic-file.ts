/**
 * Files that readers may open at any moment are written under a temporary name in the same folder
 * (so the rename stays on one file system and is atomic) and renamed into place: a reader sees
 * the old file, the new file, or nothing, never half of one.
 *
 * Small files (a run's trace and small Parquet results: a few KB) are written with synchronous
 * calls. Each asynchronous fs call is a round trip through libuv's thread pool (wake a pool thread,
 * run the call, wake the event loop), and for a few KB the round trips cost more than the writes
 * (bench/README.md has the e2e figures). A synchronous write
 * holds the event loop for its duration, so large files still go through the pool, and on a
 * network file system, where every call is slow, SYNC_WRITE_MAX_BYTES should be 0.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { rm, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Files below this size are written synchronously (see above); 0 turns it off. */
export const SYNC_WRITE_MAX_BYTES = 256 * 1024;

// Unique per process (random, drawn once) and per call (a counter): drawing random bytes for
// every temporary name cost more than the rest of naming it.
const processTag = randomBytes(6).toString('hex');
let counter = 0;

/** A hidden name beside `finalPath` that no plain-token id can produce (it starts with a dot). */
export function tempPathBeside(finalPath: string, suffix = '.tmp'): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return join(dirname(finalPath), `.${basename(finalPath)}.${processTag}${counter.toString(36)}${suffix}`);
}

/** Text is written as UTF-8; `suffix` ends the temporary name (see tempPathBeside). */
export async function writeFileAtomic(
  finalPath: string,
  data: string | Uint8Array,
  suffix = '.tmp',
): Promise<void> {
  const temp = tempPathBeside(finalPath, suffix);
  // A string's UTF-8 size is at most three bytes a character: this bound needs no encoding pass.
  const size = typeof data === 'string' ? data.length * 3 : data.byteLength;
  if (size < SYNC_WRITE_MAX_BYTES) {
    try {
      writeFileSync(temp, data, { encoding: 'utf8', flag: 'wx' });
      renameSync(temp, finalPath);
    } catch (err) {
      rmSync(temp, { force: true });
      throw err;
    }
    return;
  }
  try {
    await writeFile(temp, data, { encoding: 'utf8', flag: 'wx' });
    await rename(temp, finalPath);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** Makes a folder and its parents, synchronously (one cheap call, see above). */
export function makeFolder(path: string): void {
  mkdirSync(path, { recursive: true });
}
