/**
 * The engine: everything the service does, without HTTP. `Engine.create(config)` builds it
 * (adapters built, nothing connected, no model call); `check()` connects and introspects every
 * datasource and decides whether the engine may serve; `close()` closes every pool and client.
 * The HTTP layer (src/api) only resolves roles, calls these methods and maps errors to statuses.
 */
import type { AppConfig } from '../config/defaults';
import { SecretManager } from '../config/secrets';
import { ensureDemoDatabase } from './datasources/demo';
import { EngineError } from './errors';
import { OperatorEvents } from './events/operator-events';
import { getLogger } from './logging/logger';
import { DatasourceRegistry, type ListedDatasource } from './registry/datasource-registry';

export interface EngineOptions {
  /** Secret sources beyond env and file (a vault client...). */
  readonly secrets?: SecretManager;
  readonly env?: NodeJS.ProcessEnv;
}

export interface DatasourceCheck {
  readonly datasource_id: string;
  readonly status: string;
  readonly required: boolean;
  readonly reason: string | null;
}

export class EngineNotReadyError extends EngineError {
  constructor(
    message: string,
    readonly checks: readonly DatasourceCheck[],
  ) {
    super('ENGINE_NOT_READY', message, { checks });
    this.name = 'EngineNotReadyError';
  }
}

export class Engine {
  readonly events: OperatorEvents;
  readonly datasources: DatasourceRegistry;
  private readonly log = getLogger('nl2sql.engine');
  private closed = false;

  private constructor(
    readonly config: AppConfig,
    readonly secrets: SecretManager,
  ) {
    this.events = new OperatorEvents(config.tenant_id);
    this.datasources = new DatasourceRegistry(secrets, getLogger('nl2sql.datasource'), config.base_dir);
  }

  /** Builds every part from the config; opens nothing and calls no model. */
  static create(config: AppConfig, options: EngineOptions = {}): Engine {
    const secrets = options.secrets ?? new SecretManager(options.env ?? process.env, config.base_dir);
    const engine = new Engine(config, secrets);
    config.datasources.forEach((ds, i) => engine.datasources.add(ds, `datasources[${i}]`));
    return engine;
  }

  get tenantId(): string {
    return this.config.tenant_id;
  }

  /**
   * Connects and introspects every datasource. A required one that fails, or none ready at all,
   * throws EngineNotReadyError naming each failing datasource and its reason; an optional failure
   * is recorded as `failed` and the rest serve.
   */
  async check(): Promise<DatasourceCheck[]> {
    await this.prepareDemoDatabases();
    const entries = await Promise.all(this.datasources.ids().map((id) => this.datasources.check(id)));
    const checks: DatasourceCheck[] = entries.map((e) => ({
      datasource_id: e.config.id,
      status: e.status,
      required: e.config.required ?? false,
      reason: e.reason,
    }));
    const requiredFailed = checks.filter((c) => c.required && c.status !== 'ready');
    if (requiredFailed.length) {
      throw new EngineNotReadyError(
        `required datasource${requiredFailed.length > 1 ? 's' : ''} failed: ` +
          requiredFailed.map((c) => `'${c.datasource_id}' (${c.reason})`).join('; '),
        checks,
      );
    }
    if (!checks.some((c) => c.status === 'ready')) {
      const why = checks.length
        ? checks.map((c) => `'${c.datasource_id}' (${c.reason})`).join('; ')
        : 'no datasource is configured (add one under `datasources:`)';
      throw new EngineNotReadyError(`no datasource is ready: ${why}`, checks);
    }
    return checks;
  }

  /** `connection.demo: true` asks for the generated demo database; it is built on first start. */
  private async prepareDemoDatabases(): Promise<void> {
    for (const entry of this.datasources.all()) {
      const conn = entry.config.connection;
      if (entry.config.type !== 'duckdb' || !conn.demo || !conn.path) continue;
      const result = await ensureDemoDatabase(conn.path);
      if (result.created) {
        this.log.info('built the demo database', { datasource_id: entry.config.id, path: conn.path, seconds: result.seconds });
      }
    }
  }

  listDatasources(): ListedDatasource[] {
    return this.datasources.list();
  }

  getDatasource(id: string): ListedDatasource {
    return this.datasources.describe(this.datasources.require(id));
  }

  /** Runtime add: validated and built, not connected, not indexed; nothing written to files. */
  addDatasource(raw: unknown, by: { roles?: readonly string[] } = {}): ListedDatasource {
    const entry = this.datasources.add(raw);
    this.events.audit('datasource.added', { datasource_id: entry.config.id, roles: by.roles ?? [] });
    this.log.info('datasource added at runtime', { datasource_id: entry.config.id });
    return this.datasources.describe(entry);
  }

  /** Runtime remove: out of routing and the running config, pool closed; index entries stay. */
  async removeDatasource(id: string, by: { roles?: readonly string[] } = {}): Promise<void> {
    await this.datasources.remove(id);
    this.events.audit('datasource.removed', { datasource_id: id, roles: by.roles ?? [] });
    this.log.info('datasource removed at runtime', { datasource_id: id });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.datasources.closeAll();
    this.events.complete();
    this.log.info('engine closed');
  }
}
