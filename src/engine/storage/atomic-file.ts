/**
 * Files that readers may open at any moment are written under a temporary name in the same folder
 * (so the rename stays on one file system and is atomic) and renamed into place: a reader sees
 * the old file, the new file, or nothing, never half of one.
 */
import { randomBytes } from 'node:crypto';
import { rm, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** A hidden name beside `finalPath` that no plain-token id can produce (it starts with a dot). */
export function tempPathBeside(finalPath: string, suffix = '.tmp'): string {
  return join(dirname(finalPath), `.${basename(finalPath)}.${randomBytes(6).toString('hex')}${suffix}`);
}

export async function writeFileAtomic(finalPath: string, data: string): Promise<void> {
  const temp = tempPathBeside(finalPath);
  try {
    await writeFile(temp, data, { encoding: 'utf8', flag: 'wx' });
    await rename(temp, finalPath);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}
