/**
 * The engine: everything the service does, without HTTP. `Engine.create(config)` builds it
 * (adapters built, nothing connected, no model call); `check()` connects and introspects every
 * datasource and decides whether the engine may serve; `close()` closes every pool and client.
 * The HTTP layer (src/api) only resolves roles, calls these methods and maps errors to statuses.
 */
import type { AppConfig } from '../config/defaults';
import { ConfigError, type ConfigProblem } from '../config/config-error';
import { SecretManager } from '../config/secrets';
import { ensureDemoDatabase } from './datasources/demo';
import { EngineError } from './errors';
import { OperatorEvents } from './events/operator-events';
import {
  createIndexService,
  type ClearIndexResult,
  type DatasourceMeta,
  type IndexAllResult,
  type IndexingStats,
  type IndexService,
  type IndexStatus,
  type IndexTarget,
} from './index';
import { LlmService } from './llm/llm-service';
import { getLogger } from './logging/logger';
import type { PipelineDeps } from './pipeline/deps';
import { Pipeline } from './pipeline/pipeline';
import { MemoryPlanCache } from './pipeline/plan-cache';
import { startRun, type RunHandle, type RunServices } from './pipeline/run-query';
import type { RunRequest } from './pipeline/run-state';
import { VerifiedQueries } from './pipeline/verified-queries';
import type { QueryResponse } from './pipeline/wire';
import { HookRunner } from './policy/hooks';
import { DatasourceRegistry, type ListedDatasource } from './registry/datasource-registry';
import {
  LocalResultStore,
  LocalTraceStore,
  purge,
  type PurgeReport,
  type ResultStore,
  type TraceStore,
} from './storage';

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
  readonly llm: LlmService;
  /** Null when the embeddings section cannot be used (a missing key): the reason is `indexProblem`. */
  private readonly indexService: IndexService | null;
  readonly indexProblem: string | null;
  readonly results: ResultStore;
  readonly traces: TraceStore;
  readonly verified: VerifiedQueries;
  readonly hooks: HookRunner;
  readonly pipeline: Pipeline;
  private readonly planCache: MemoryPlanCache;
  private readonly runServices: RunServices;
  private readonly log = getLogger('nl2sql.engine');
  private indexOpen = false;
  private closed = false;

  private constructor(
    readonly config: AppConfig,
    readonly secrets: SecretManager,
    source: string,
  ) {
    this.events = new OperatorEvents(config.tenant_id);
    this.datasources = new DatasourceRegistry(secrets, getLogger('nl2sql.datasource'), config.base_dir);
    this.llm = new LlmService({
      llm: config.llm ?? undefined,
      secrets,
      audit: this.events,
      maxCostUsd: config.settings.pipeline.max_cost_usd,
      discoverPlugins: config.base_dir,
      source,
    });
    // Like a model key (spec 4.16.7), a missing embeddings key does not stop the engine being
    // built: routing falls back to the model and the index routes name the reason.
    let index: IndexService | null = null;
    let indexProblem: string | null = null;
    try {
      index = createIndexService(
        { embeddings: config.embeddings, storage: { index: config.storage.index } },
        { secrets, logger: getLogger('nl2sql.index') },
      );
    } catch (err) {
      indexProblem = err instanceof Error ? err.message : String(err);
    }
    this.indexService = index;
    this.indexProblem = indexProblem;
    this.results = new LocalResultStore(config.storage.results.path);
    this.traces = new LocalTraceStore(config.storage.traces.path);
    this.verified = new VerifiedQueries(config.verified_queries);
    this.planCache = new MemoryPlanCache(config.settings.pipeline.plan_cache_size);
    this.hooks = new HookRunner(config.hooks, this.events);
    const deps = this.pipelineDeps();
    this.pipeline = new Pipeline(deps);
    this.runServices = {
      deps,
      pipeline: this.pipeline,
      llm: this.llm,
      traces: this.traces,
      operator: this.events,
    };
  }

  /** Builds every part from the config; opens nothing and calls no model. */
  static create(config: AppConfig, options: EngineOptions & { source?: string } = {}): Engine {
    const secrets = options.secrets ?? new SecretManager(options.env ?? process.env, config.base_dir);
    const engine = new Engine(config, secrets, options.source ?? 'config');
    config.datasources.forEach((ds, i) => engine.datasources.add(ds, `datasources[${i}]`));
    return engine;
  }

  private pipelineDeps(): PipelineDeps {
    // Routing uses the index only once it is open and has entries (see `check`): a getter, so a
    // build or a clear at runtime takes effect on the next run.
    const liveIndex = () => (this.indexOpen ? this.indexService : null);
    return {
      config: this.config,
      datasources: this.datasources,
      get index() {
        return liveIndex();
      },
      planCache: this.planCache,
      verified: this.verified,
      results: this.results,
      hooks: this.hooks,
    };
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
    this.checkVerifiedQueries();
    for (const problem of this.llm.check()) {
      this.log.warn('model agent not usable until fixed', { ...problem });
    }
    await this.openIndex();
    return checks;
  }

  /** Verified queries of every ready datasource must import and validate; a bad one stops start-up. */
  private checkVerifiedQueries(): void {
    const problems: ConfigProblem[] = [];
    for (const entry of this.datasources.ready()) {
      if (entry.snapshot) problems.push(...this.verified.check(entry.config.id, entry.snapshot));
    }
    if (problems.length) throw new ConfigError(problems, 'verified_queries');
  }

  private async openIndex(): Promise<void> {
    if (!this.indexService) {
      this.log.warn('schema index unavailable', { reason: this.indexProblem });
      return;
    }
    try {
      await this.indexService.open();
      const status = await this.indexService.status(this.datasources.ids());
      this.indexOpen = status.total > 0;
      this.log.info(`schema index ${status.status}`, {
        entries: status.total,
        problems: status.problems.length,
      });
    } catch (err) {
      // Routing falls back to the model without an index; the index routes report the reason.
      this.log.warn('schema index unavailable', { reason: err instanceof Error ? err.message : String(err) });
    }
  }

  /** `connection.demo: true` asks for the generated demo database; it is built on first start. */
  private async prepareDemoDatabases(): Promise<void> {
    for (const entry of this.datasources.all()) {
      const conn = entry.config.connection;
      if (entry.config.type !== 'duckdb' || !conn.demo || !conn.path) continue;
      const result = await ensureDemoDatabase(conn.path);
      if (result.created) {
        this.log.info('built the demo database', {
          datasource_id: entry.config.id,
          path: conn.path,
          seconds: result.seconds,
        });
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

  /** Builds one datasource's index entries (introspecting it first if needed). Throws with the reason. */
  async indexDatasource(id: string): Promise<IndexingStats> {
    const entry = await this.datasources.use(id);
    const stats = await this.index().indexDatasource(
      id,
      await this.freshSnapshot(id),
      this.indexMeta(entry.config.id),
    );
    this.indexOpen = true;
    return stats;
  }

  /** Builds every configured datasource; one that fails is an `errors` entry and keeps its entries. */
  async indexAll(): Promise<IndexAllResult> {
    const targets: IndexTarget[] = this.datasources.ids().map((id) => ({
      datasourceId: id,
      snapshot: () => this.freshSnapshot(id),
      meta: this.indexMeta(id),
    }));
    const result = await this.index().indexAll(targets);
    this.indexOpen = result.stats.length > 0 || this.indexOpen;
    return result;
  }

  async clearIndex(): Promise<ClearIndexResult> {
    const result = await this.index().clear();
    this.indexOpen = false;
    return result;
  }

  async indexStatus(): Promise<IndexStatus> {
    if (!this.indexService) {
      const model = this.config.embeddings.model ?? this.config.embeddings.provider;
      return {
        status: 'missing',
        total: 0,
        counts: {},
        built_at: null,
        embedding_model: model,
        namespace: this.config.storage.index.namespace,
        datasources: [],
        problems: [
          {
            code: 'INDEX_UNAVAILABLE',
            datasource_id: null,
            message: `the embedder cannot be built: ${this.indexProblem}`,
            fix: 'fix the embeddings section (or its key) and restart, then POST /api/v1/index-all',
          },
        ],
      };
    }
    return this.index().status(
      this.datasources
        .all()
        .map((e) => ({ datasourceId: e.config.id, schemaVersion: e.snapshot?.schemaVersion })),
    );
  }

  /** The index service, or INDEX_UNAVAILABLE naming why (e.g. the embeddings key is missing). */
  index(): IndexService {
    if (!this.indexService)
      throw new EngineError('INDEX_UNAVAILABLE', `the schema index is unavailable: ${this.indexProblem}`);
    return this.indexService;
  }

  /** Introspects again so a build always reflects the schema as it is now. */
  private async freshSnapshot(id: string) {
    const entry = await this.datasources.use(id);
    entry.snapshot = await entry.adapter.introspect();
    return entry.snapshot;
  }

  private indexMeta(id: string): DatasourceMeta {
    const cfg = this.datasources.require(id).config;
    return {
      description: cfg.description,
      sampleQuestions: cfg.sample_questions ?? [],
      verifiedQueries: this.config.verified_queries
        .filter((v) => v.datasource_id === id)
        .map((v) => ({ id: v.id, question: v.question, paraphrases: v.paraphrases ?? [], sql: v.sql })),
    };
  }

  /**
   * Runs a question to its answer. Pipeline failures are data in the response (status `error`);
   * this rejects only on an unexpected failure or a cancellation.
   */
  async run(request: RunRequest, signal: AbortSignal = new AbortController().signal): Promise<QueryResponse> {
    // Nobody follows the events of this run: none is built (see RunEventEmitter).
    return this.begin(request, signal, false).done;
  }

  /** The simplest programmatic call: a question, optionally a datasource and the caller's roles. */
  async ask(
    question: string,
    options: {
      datasourceId?: string;
      execute?: boolean;
      roles?: readonly string[];
      userId?: string;
      signal?: AbortSignal;
    } = {},
  ): Promise<QueryResponse> {
    return this.run(
      {
        question,
        datasourceId: options.datasourceId ?? null,
        execute: options.execute ?? true,
        caller: { roles: options.roles ?? [], userId: options.userId ?? null },
      },
      options.signal,
    );
  }

  /** Starts a run and returns its handle: its events (for the stream route) and its result. */
  start(request: RunRequest, signal: AbortSignal = new AbortController().signal): RunHandle {
    return this.begin(request, signal, true);
  }

  private begin(request: RunRequest, signal: AbortSignal, observed: boolean): RunHandle {
    if (this.closed) throw new EngineError('ENGINE_CLOSED', 'the engine is closed');
    // The HTTP routes refuse a blank question with a 422 first; programmatic callers meet it here.
    if (!request.question.trim()) throw new EngineError('REQUEST_INVALID', 'the question is blank');
    return startRun(this.runServices, request, signal, observed);
  }

  /** Deletes traces and results older than their store's max_age_days. Never throws. */
  async purge(now = new Date()): Promise<PurgeReport> {
    const { results, traces } = this.config.storage;
    try {
      const report = await purge(
        {
          results: { path: results.path, maxAgeDays: results.max_age_days },
          traces: { path: traces.path, maxAgeDays: traces.max_age_days },
        },
        now,
      );
      for (const e of report.errors) this.log.warn('purge could not remove an entry', { reason: e });
      if (report.removed.results || report.removed.traces)
        this.log.info('purged old results and traces', { ...report.removed });
      return report;
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.log.error('purge failed', { reason });
      return { removed: { results: 0, traces: 0 }, errors: [reason] };
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([this.llm.close(), this.indexService?.close(), this.results.close()]);
    await this.datasources.closeAll();
    this.events.complete();
    this.log.info('engine closed');
  }
}
