/**
 * Start-up and shutdown of the engine. At bootstrap: ready the datasource files (preparers),
 * connect and introspect every datasource, and refuse to serve when a required one fails or none
 * is ready; check the verified queries; log the model agents that cannot be used yet; open the
 * schema index; start retention. At shutdown: stop taking runs, then close every pool and client.
 */
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigError, type ConfigProblem } from '../../config/config-error';
import { IndexAdmin } from '../admin/index-admin.service';
import { DATASOURCE_PREPARERS, type DatasourcePreparer } from '../datasources/preparer';
import { DatasourceRegistry } from '../datasources/registry';
import { ENGINE_CONFIG, type EngineConfig } from '../engine-config';
import { EngineNotReadyError, type DatasourceCheck } from '../errors';
import { OperatorEvents } from '../events/operator-events';
import { SchemaIndex } from '../index';
import { LlmService } from '../llm/llm-service';
import { probeAgents } from '../llm/reachability';
import { getLogger } from '../logging/logger';
import { VerifiedQueries } from '../verified/verified-queries';
import { VerifiedQueryAdmin } from '../verified/verified-admin';
import { VerifiedDrift } from '../verified/drift';
import { policySchemaProblems } from '../policy/policy-config';
import { ResultStore } from '../storage/result-store';
import { EngineState } from '../run/engine-state';
import { ModelReachability } from './model-reachability';
import { RetentionService } from './retention.service';

@Injectable()
export class EngineLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = getLogger('nl2sql.engine');
  private closing: Promise<void> | null = null;

  constructor(
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
    @Inject(DATASOURCE_PREPARERS) private readonly preparers: readonly DatasourcePreparer[],
    private readonly datasources: DatasourceRegistry,
    private readonly verified: VerifiedQueries,
    private readonly llm: LlmService,
    private readonly index: SchemaIndex,
    private readonly results: ResultStore,
    private readonly events: OperatorEvents,
    private readonly retention: RetentionService,
    private readonly state: EngineState,
    private readonly models: ModelReachability,
    private readonly indexAdmin: IndexAdmin,
    private readonly verifiedAdmin: VerifiedQueryAdmin,
    private readonly drift: VerifiedDrift,
  ) {}

  /** A start that fails closes what it opened before the error reaches the caller. */
  async onApplicationBootstrap(): Promise<void> {
    try {
      await this.check();
      await this.retention.start();
    } catch (err) {
      await this.close();
      throw err;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  /**
   * Connects and introspects every datasource. A required one that fails, or none ready at all,
   * throws EngineNotReadyError naming each failing datasource and its reason; an optional failure
   * is recorded as `failed` and the rest serve.
   */
  private async check(): Promise<DatasourceCheck[]> {
    const configs = this.datasources.all().map((e) => e.config);
    for (const preparer of this.preparers) await preparer.prepare(configs);
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
    // Runtime verified queries (stored) are checked with the configured ones; drift follows from here.
    await this.verifiedAdmin.load();
    this.checkVerifiedQueries();
    this.drift.start();
    this.checkRowPolicies();
    for (const problem of this.llm.check()) {
      this.log.warn('model agent not usable until fixed', { ...problem });
    }
    const agents = await probeAgents(this.llm.current());
    this.models.record(agents);
    for (const agent of agents) {
      // A hint without unreachability: the server answers but lacks the model (Ollama's list).
      if (!agent.hint) continue;
      const what = agent.reachable ? 'is not on the server' : 'does not answer';
      this.log.warn(`the model of agent '${agent.agent}' ${what} at ${agent.endpoint}: ${agent.hint}`, {
        agent: agent.agent,
        provider: agent.provider,
        model: agent.model,
      });
    }
    await this.index.open(this.datasources.ids());
    // In the background; closing waits for the build through the index's own queue.
    if (this.config.storage.index.build_on_start) void this.buildIndexIfNeeded();
    return checks;
  }

  /**
   * `storage.index.build_on_start`: a missing or stale index is built in the background, so the
   * service answers at once (routing falls back to the model, the planner sees no value matches)
   * and grounds questions from the moment the build completes.
   */
  private async buildIndexIfNeeded(): Promise<void> {
    if (!this.index.available) return;
    try {
      const status = await this.indexAdmin.status();
      if (status.status === 'ok') return;
      this.log.info(`building the schema index at start (it was ${status.status})`);
      const result = await this.indexAdmin.indexAll();
      this.log.info('schema index built at start', {
        datasources: result.stats.length,
        values: result.stats.reduce((n, s) => n + s.values, 0),
        seconds: Math.round(result.stats.reduce((n, s) => n + s.seconds, 0) * 100) / 100,
        errors: result.errors.length,
      });
    } catch (err) {
      if (!this.closing) {
        this.log.warn('the schema index could not be built at start', {
          reason: err instanceof Error ? err.message : String(err),
        });
      }
    }
  }

  /**
   * Verified queries of every ready datasource must import and validate; a bad configured one stops
   * start-up, a bad runtime one is disabled with the reason (the config file is not the caller's to fix).
   */
  private checkVerifiedQueries(): void {
    const problems: ConfigProblem[] = [];
    for (const entry of this.datasources.ready()) {
      if (entry.snapshot) problems.push(...this.verified.check(entry.config.id, entry.snapshot));
    }
    if (problems.length) throw new ConfigError(problems, 'verified_queries');
  }

  /** Row filters and masks must name tables and columns of every ready datasource; a bad one stops start-up. */
  private checkRowPolicies(): void {
    const problems: ConfigProblem[] = [];
    for (const entry of this.datasources.ready()) {
      if (entry.snapshot) problems.push(...policySchemaProblems(this.config.policies.roles, entry.snapshot));
    }
    if (problems.length) throw new ConfigError(problems, 'policies');
  }

  private close(): Promise<void> {
    this.closing ??= (async () => {
      this.state.close();
      await Promise.allSettled([this.llm.close(), this.index.close(), this.results.close()]);
      await this.datasources.closeAll();
      this.events.complete();
      this.log.info('engine closed', { tenant_id: this.config.tenant_id });
    })();
    return this.closing;
  }
}
