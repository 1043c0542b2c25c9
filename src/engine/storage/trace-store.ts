/**
 * Run traces: one JSON file per run, `<root>/<tenant>/<request_id>.json`, redacted and written
 * atomically. Behind an interface so an object store can hold them instead.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { redact } from '../../config/redact';
import { makeFolder, writeFileAtomic } from './atomic-file';
import { isPlainToken } from './ids';
import { StorageWriteError } from './storage-errors';

export abstract class TraceStore {
  /** Writes the run's trace and returns where it went (the response's `trace_path`). */
  abstract writeTrace(tenant: string, requestId: string, trace: object): Promise<string>;
  /**
   * A run's trace as written, or null when this tenant has none of that id (an unknown run,
   * another tenant's, one purged, an id that is not a plain token): feedback names runs by id.
   */
  abstract readTrace(tenant: string, requestId: string): Promise<Record<string, unknown> | null>;
}

export class LocalTraceStore implements TraceStore {
  /** Tenant folders already made: one mkdir per folder, not one per run. */
  private readonly madeDirs = new Set<string>();

  /** `root` is `storage.traces.path`. */
  constructor(readonly root: string) {}

  async writeTrace(tenant: string, requestId: string, trace: object): Promise<string> {
    if (!isPlainToken(tenant))
      throw new StorageWriteError('tenant must be a plain token (letters, digits, _ and -)', {
        field: 'tenant',
      });
    if (!isPlainToken(requestId)) {
      throw new StorageWriteError('request_id must be a plain token (letters, digits, _ and -)', {
        field: 'request_id',
      });
    }
    const dir = join(this.root, tenant);
    const path = join(dir, `${requestId}.json`);
    // Every string value is redacted (keys in provider responses, passwords in URLs) in the one
    // serialising pass: the replacer sees values after toJSON(), so Dates and undefined behave as
    // they do in the file.
    const text = (JSON.stringify(trace, redactString, 2) ?? 'null') + '\n';
    try {
      await this.write(dir, path, text);
    } catch (err) {
      throw new StorageWriteError(
        `Writing the trace failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    return path;
  }

  async readTrace(tenant: string, requestId: string): Promise<Record<string, unknown> | null> {
    if (!isPlainToken(tenant) || !isPlainToken(requestId)) return null;
    let text: string;
    try {
      text = await readFile(join(this.root, tenant, `${requestId}.json`), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    const trace = JSON.parse(text) as unknown;
    return trace && typeof trace === 'object' && !Array.isArray(trace)
      ? (trace as Record<string, unknown>)
      : null;
  }

  private async write(dir: string, path: string, text: string): Promise<void> {
    if (!this.madeDirs.has(dir)) {
      makeFolder(dir);
      this.madeDirs.add(dir);
    }
    try {
      await writeFileAtomic(path, text);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      // The folder went away since it was made (removed by hand, say): make it again.
      makeFolder(dir);
      await writeFileAtomic(path, text);
    }
  }
}

function redactString(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? redact(value) : value;
}
