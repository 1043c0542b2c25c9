/**
 * Files that readers may open at any moment are written under a temporary name in the same folder
 * (so the rename stays on one file system and is atomic) and renamed into place: a reader sees
 * the old file, the new file, or nothing, never half of one.
 */
import { randomBytes } from 'node:crypto';
import { rm, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

// Unique per process (random, drawn once) and per call (a counter): drawing random bytes for
// every temporary name cost more than the rest of naming it (e2e bench profile).
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
  try {
    await writeFile(temp, data, { encoding: 'utf8', flag: 'wx' });
    await rename(temp, finalPath);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}
