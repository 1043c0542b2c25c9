/**
 * Where ratings are kept: a port (the abstract class is the DI token) with a local backend here,
 * one JSON file per rating under `<storage.knowledge.path>/<tenant>/feedback/`, written
 * asynchronously (temp name, then rename) and redacted as it is written, like a trace. A shared
 * backend for several replicas implements the same two calls.
 */
import { join } from 'node:path';
import { JsonRecordFolder } from '../storage/json-record-folder';
import { getLogger } from '../logging/logger';
import type { FeedbackRecord } from './feedback-record';

export abstract class FeedbackStore {
  /** Stores one rating once it is durable. */
  abstract add(tenant: string, record: FeedbackRecord): Promise<void>;
  /** Every rating of the tenant, in no particular order. */
  abstract list(tenant: string): Promise<FeedbackRecord[]>;
}

export class LocalFeedbackStore implements FeedbackStore {
  private readonly folders = new Map<string, JsonRecordFolder<FeedbackRecord>>();

  /** `root` is `storage.knowledge.path`. */
  constructor(readonly root: string) {}

  add(tenant: string, record: FeedbackRecord): Promise<void> {
    return this.folder(tenant).write(record.id, record);
  }

  list(tenant: string): Promise<FeedbackRecord[]> {
    return this.folder(tenant).readAll((file, reason) =>
      getLogger('nl2sql.feedback').warn('a stored feedback record does not parse: skipped', { file, reason }),
    );
  }

  private folder(tenant: string): JsonRecordFolder<FeedbackRecord> {
    let folder = this.folders.get(tenant);
    if (!folder) {
      folder = new JsonRecordFolder(join(this.root, tenant, 'feedback'), { redactStrings: true });
      this.folders.set(tenant, folder);
    }
    return folder;
  }
}
