/**
 * Run traces: one JSON file per run, `<root>/<tenant>/<request_id>.json`, redacted and written
 * atomically. Behind an interface so an object store can hold them instead.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { redactDeep } from '../../config/redact';
import { writeFileAtomic } from './atomic-file';
import { isPlainToken } from './ids';
import { StorageWriteError } from './storage-errors';

export interface TraceStore {
  /** Writes the run's trace and returns where it went (the response's `trace_path`). */
  writeTrace(tenant: string, requestId: string, trace: object): Promise<string>;
}

export class LocalTraceStore implements TraceStore {
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
    // Through JSON first so Dates, toJSON() and undefined behave as they will in the file,
    // then every string is redacted (keys in provider responses, passwords in URLs).
    const plain = JSON.parse(JSON.stringify(trace) ?? 'null') as unknown;
    const text = JSON.stringify(redactDeep(plain), null, 2) + '\n';
    try {
      await mkdir(dir, { recursive: true });
      await writeFileAtomic(path, text);
    } catch (err) {
      throw new StorageWriteError(
        `Writing the trace failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    return path;
  }
}
