/**
 * A folder of small JSON records, one file per record named by its id (a plain token), for the
 * local backends of the knowledge stores (feedback, runtime verified queries). Every call is
 * asynchronous, so none of them holds the event loop on a request's path; a record is written
 * under a temporary name and renamed, so a reader sees the old record, the new one or none, never
 * half of one. With `redactStrings`, every string is redacted as it is written, as traces are.
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { redact } from '../../config/redact';
import { tempPathBeside } from './atomic-file';
import { isPlainToken } from './ids';
import { StorageWriteError } from './storage-errors';

export class JsonRecordFolder<T extends object> {
  private made = false;

  constructor(
    readonly dir: string,
    private readonly options: { readonly redactStrings?: boolean } = {},
  ) {}

  async write(id: string, record: T): Promise<void> {
    if (!isPlainToken(id))
      throw new StorageWriteError('a record id must be a plain token (letters, digits, _ and -)', { id });
    const path = join(this.dir, `${id}.json`);
    const temp = tempPathBeside(path);
    const replacer = this.options.redactStrings
      ? (_k: string, v: unknown) => (typeof v === 'string' ? redact(v) : v)
      : undefined;
    const text = JSON.stringify(record, replacer, 2);
    try {
      if (!this.made) {
        await mkdir(this.dir, { recursive: true });
        this.made = true;
      }
      await writeFile(temp, `${text}\n`, { encoding: 'utf8', flag: 'wx' });
      await rename(temp, path);
    } catch (err) {
      await rm(temp, { force: true });
      // The folder may have been removed since it was made: the next write makes it again.
      this.made = false;
      throw new StorageWriteError(
        `Writing ${path} failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  async remove(id: string): Promise<void> {
    if (!isPlainToken(id)) return;
    await rm(join(this.dir, `${id}.json`), { force: true });
  }

  /** Every record, in file name order; a file that does not parse is reported to `onBad`, not thrown. */
  async readAll(onBad: (file: string, reason: string) => void = () => undefined): Promise<T[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const out: T[] = [];
    // Hidden names are temporary files of writes in flight or interrupted.
    for (const name of names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort()) {
      try {
        out.push(JSON.parse(await readFile(join(this.dir, name), 'utf8')) as T);
      } catch (err) {
        onBad(name, err instanceof Error ? err.message : String(err));
      }
    }
    return out;
  }
}
