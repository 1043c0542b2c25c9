/**
 * The running set of datasources: each config with its adapter, status (`unchecked`, `ready`,
 * `failed` with a reason) and last schema snapshot. Start-up checks all of them; a datasource added
 * at runtime is built but not connected (`unchecked`) and connects on first use.
 */
import { DatasourceConfigSchema, type DatasourceConfig } from '../../config/schema';
import { ConfigError } from '../../config/config-error';
import { validateStrict } from '../../config/strict-validate';
import { redact } from '../../config/redact';
import type { SecretManager } from '../../config/secrets';
import { resolveDatasourcePaths } from '../../config/defaults';
import type { DatasourceAdapter } from './adapter';
import type { SchemaSnapshot } from './schema';
import { createAdapter, maskConnection } from './factory';
import { EngineError, NotFoundError } from '../errors';
import type { Logger } from '../logging/logger';

export type DatasourceStatus = 'ready' | 'failed' | 'unchecked';

export interface DatasourceEntry {
  readonly config: DatasourceConfig;
  readonly adapter: DatasourceAdapter;
  status: DatasourceStatus;
  reason: string | null;
  snapshot: SchemaSnapshot | null;
}

/** The listed shape of spec 2 "Listed datasource entry" (wire, snake_case). */
export interface ListedDatasource {
  id: string;
  type: string;
  description: string | null;
  status: DatasourceStatus;
  capabilities: string[];
  connection: Record<string, unknown>;
  reason: string | null;
}

const CAPABILITIES = ['supports_sql', 'read_only', 'supports_streaming', 'supports_introspection'];

/** Told of a datasource whose introspection gave a new schema_version (its first one included). */
export type SchemaChangeListener = (entry: DatasourceEntry, previousVersion: string | null) => void;

export class DatasourceRegistry {
  private readonly entries = new Map<string, DatasourceEntry>();
  /** One connect+introspect at a time per datasource, shared by concurrent first uses. */
  private readonly pending = new Map<string, Promise<DatasourceEntry>>();
  private readonly schemaListeners = new Set<SchemaChangeListener>();

  constructor(
    private readonly secrets: SecretManager,
    private readonly log: Logger,
    private readonly baseDir: string,
  ) {}

  /**
   * Builds the adapter (nothing opened). Throws ConfigError for an invalid or duplicate config.
   * `secrets`: what its pool resolves references with (a restricted manager for a runtime config).
   */
  add(raw: unknown, source = 'datasource', secrets: SecretManager = this.secrets): DatasourceEntry {
    const problems = validateStrict(DatasourceConfigSchema, raw);
    if (problems.length) throw new ConfigError(problems, source);
    const config = resolveDatasourcePaths(raw as DatasourceConfig, this.baseDir);
    if (this.entries.has(config.id)) {
      throw new ConfigError([{ path: 'id', message: `a datasource '${config.id}' already exists` }], source);
    }
    const adapter = createAdapter(config, { secrets });
    const entry: DatasourceEntry = { config, adapter, status: 'unchecked', reason: null, snapshot: null };
    this.entries.set(config.id, entry);
    return entry;
  }

  /** Removes from routing and closes the pool. Throws NotFoundError for an unknown id. */
  async remove(id: string): Promise<void> {
    const entry = this.require(id);
    this.entries.delete(id);
    this.pending.delete(id);
    await entry.adapter.close();
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  get(id: string): DatasourceEntry | undefined {
    return this.entries.get(id);
  }

  require(id: string): DatasourceEntry {
    const entry = this.entries.get(id);
    if (!entry) {
      throw new NotFoundError(`unknown datasource '${id}' (known: ${this.ids().join(', ') || 'none'})`, {
        datasource_id: id,
      });
    }
    return entry;
  }

  ids(): string[] {
    return [...this.entries.keys()];
  }

  all(): DatasourceEntry[] {
    return [...this.entries.values()];
  }

  ready(): DatasourceEntry[] {
    return this.all().filter((e) => e.status === 'ready');
  }

  /** Connects, checks health and introspects; records `ready` or `failed` with the reason. */
  async check(id: string): Promise<DatasourceEntry> {
    const inflight = this.pending.get(id);
    if (inflight) return inflight;
    const entry = this.require(id);
    const run = (async () => {
      const started = Date.now();
      try {
        await entry.adapter.connect();
        await entry.adapter.healthCheck();
        const snapshot = await entry.adapter.introspect();
        entry.status = 'ready';
        entry.reason = null;
        this.log.info(`datasource ready`, {
          datasource_id: id,
          tables: snapshot.tables.length,
          schema_version: snapshot.schemaVersion,
          seconds: (Date.now() - started) / 1000,
        });
        this.setSnapshot(entry, snapshot);
      } catch (err) {
        entry.status = 'failed';
        entry.reason = redact(err instanceof Error ? err.message : String(err));
        this.log.warn(`datasource failed`, { datasource_id: id, reason: entry.reason });
      }
      return entry;
    })();
    this.pending.set(id, run);
    try {
      return await run;
    } finally {
      this.pending.delete(id);
    }
  }

  /** Introspects a ready datasource again, so a caller (an index build) reads the schema as it is now. */
  async refreshSnapshot(id: string): Promise<SchemaSnapshot> {
    const entry = await this.use(id);
    const snapshot = await entry.adapter.introspect();
    this.setSnapshot(entry, snapshot);
    return snapshot;
  }

  /**
   * Calls `listener` each time an introspection (a connect, a reconnect, an index build's fresh
   * read) gives a datasource another schema_version than it had. Returns the unsubscribe.
   */
  onSchemaChange(listener: SchemaChangeListener): () => void {
    this.schemaListeners.add(listener);
    return () => this.schemaListeners.delete(listener);
  }

  private setSnapshot(entry: DatasourceEntry, snapshot: SchemaSnapshot): void {
    const previous = entry.snapshot?.schemaVersion ?? null;
    entry.snapshot = snapshot;
    if (previous === snapshot.schemaVersion) return;
    for (const listener of this.schemaListeners) {
      try {
        listener(entry, previous);
      } catch (err) {
        // A listener's failure is its own: the datasource stays ready with its new schema.
        this.log.warn('a schema change listener failed', {
          datasource_id: entry.config.id,
          reason: redact(err instanceof Error ? err.message : String(err)),
        });
      }
    }
  }

  /** A datasource ready for a query: an `unchecked` one (added at runtime) is checked first. */
  async use(id: string): Promise<DatasourceEntry> {
    let entry = this.require(id);
    if (entry.status !== 'ready') entry = await this.check(id);
    if (entry.status !== 'ready') {
      throw new EngineError(
        'DATASOURCE_UNAVAILABLE',
        `datasource '${id}' is not available: ${entry.reason}`,
        {
          datasource_id: id,
        },
      );
    }
    return entry;
  }

  list(): ListedDatasource[] {
    return this.all().map((e) => this.describe(e));
  }

  describe(e: DatasourceEntry): ListedDatasource {
    return {
      id: e.config.id,
      type: e.config.type,
      description: e.config.description ?? null,
      status: e.status,
      capabilities: CAPABILITIES,
      connection: maskConnection(e.config.connection),
      reason: e.reason,
    };
  }

  async closeAll(): Promise<void> {
    const results = await Promise.allSettled(this.all().map((e) => e.adapter.close()));
    for (const r of results) {
      if (r.status === 'rejected')
        this.log.warn('closing a datasource failed', { reason: redact(String(r.reason)) });
    }
  }
}
