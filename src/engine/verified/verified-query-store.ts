/**
 * Where verified queries added at runtime are kept, so they survive a restart: a port (the
 * abstract class is the DI token) with a local backend here, one JSON file per query under
 * `<storage.knowledge.path>/<tenant>/verified-queries/`. A shared backend for several replicas
 * implements the same three calls.
 */
import { join } from 'node:path';
import type { VerifiedQueryConfig } from '../../config/schema';
import { getLogger } from '../logging/logger';
import { JsonRecordFolder } from '../storage/json-record-folder';
import type { VerifiedProvenance } from './verified-queries';

export interface StoredVerifiedQuery {
  readonly definition: VerifiedQueryConfig;
  readonly provenance: VerifiedProvenance;
}

export abstract class VerifiedQueryStore {
  /** Every stored query of the tenant. */
  abstract list(tenant: string): Promise<StoredVerifiedQuery[]>;
  /** Stores one (replacing a stored one of the same id) once it is durable. */
  abstract put(tenant: string, query: StoredVerifiedQuery): Promise<void>;
  /** Removes one; removing an id that is not stored does nothing. */
  abstract remove(tenant: string, id: string): Promise<void>;
}

export class LocalVerifiedQueryStore implements VerifiedQueryStore {
  private readonly folders = new Map<string, JsonRecordFolder<StoredVerifiedQuery>>();

  /** `root` is `storage.knowledge.path`. */
  constructor(readonly root: string) {}

  list(tenant: string): Promise<StoredVerifiedQuery[]> {
    return this.folder(tenant).readAll((file, reason) =>
      getLogger('nl2sql.verified').warn('a stored verified query does not parse: skipped', { file, reason }),
    );
  }

  put(tenant: string, query: StoredVerifiedQuery): Promise<void> {
    return this.folder(tenant).write(query.definition.id, query);
  }

  remove(tenant: string, id: string): Promise<void> {
    return this.folder(tenant).remove(id);
  }

  private folder(tenant: string): JsonRecordFolder<StoredVerifiedQuery> {
    let folder = this.folders.get(tenant);
    if (!folder) {
      folder = new JsonRecordFolder(join(this.root, tenant, 'verified-queries'));
      this.folders.set(tenant, folder);
    }
    return folder;
  }
}
