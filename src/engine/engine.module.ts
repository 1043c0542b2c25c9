/**
 * The engine as a Nest module: every port (abstract classes as tokens, so a test or a shared
 * backend can replace one), every pipeline node and every engine service is a provider built by
 * Nest with constructor injection. `forRoot(config)` is used by the HTTP app and by createEngine
 * (NestFactory.createApplicationContext), so both run the same engine.
 */
import { type DynamicModule, Global, Module, type Provider } from '@nestjs/common';
import { DEFAULT_PURGE_INTERVAL_S, type AppConfig } from '../config/defaults';
import { RuntimeSecretPolicy } from '../config/runtime-secrets';
import { SecretManager } from '../config/secrets';
import { DatasourceAdmin } from './admin/datasource-admin.service';
import { IndexAdmin } from './admin/index-admin.service';
import { ResultsService } from './admin/results.service';
import { DATASOURCE_PREPARERS } from './datasources/preparer';
import { DatasourceRegistry } from './datasources/registry';
import { ENGINE_CONFIG, type EngineOptions } from './engine-config';
import { OperatorEvents } from './events/operator-events';
import { SchemaIndex } from './index';
import { EngineLifecycle } from './lifecycle/engine-lifecycle';
import { EngineState } from './run/engine-state';
import { ModelReachability } from './lifecycle/model-reachability';
import { PURGE_INTERVAL_S, RetentionService } from './lifecycle/retention.service';
import { LlmService } from './llm/llm-service';
import { getLogger } from './logging/logger';
import { AnswerSynthesizer } from './run/nodes/answer-synthesizer';
import { AstPlanner } from './run/nodes/ast-planner';
import { DatasourceResolver } from './run/nodes/datasource-resolver';
import { Decomposer } from './run/nodes/decomposer';
import { Executor } from './run/nodes/executor';
import { Generator } from './run/nodes/generator';
import { LogicalValidator } from './run/nodes/logical-validator';
import { VerifiedResolver } from './run/nodes/verified-resolver';
import { Pipeline } from './run/pipeline';
import { MemoryPlanCache, PlanCache } from './run/plan-cache';
import { RunService } from './run/run-service';
import { VerifiedQueries } from './verified/verified-queries';
import { VerifiedQueryAdmin } from './verified/verified-admin';
import { VerifiedDrift } from './verified/drift';
import { FeedbackStore, LocalFeedbackStore } from './feedback/feedback-store';
import { FeedbackService } from './feedback/feedback-service';
import { VerifiedSuggestions } from './verified/suggestions/suggestion-service';
import { VerifiedEvaluation } from './verified/evaluation/evaluation';
import { LocalVerifiedQueryStore, VerifiedQueryStore } from './verified/verified-query-store';
import { HookRunner } from './policy/hooks';
import { LocalResultStore, LocalTraceStore, ResultStore, TraceStore } from './storage';

export const PIPELINE_NODES = [
  DatasourceResolver,
  Decomposer,
  VerifiedResolver,
  AstPlanner,
  LogicalValidator,
  Generator,
  Executor,
  AnswerSynthesizer,
] as const;

@Global()
@Module({})
export class EngineModule {
  static forRoot(config: AppConfig, options: EngineOptions = {}): DynamicModule {
    const ports: Provider[] = [
      { provide: ENGINE_CONFIG, useValue: config },
      { provide: DATASOURCE_PREPARERS, useValue: options.preparers ?? [] },
      { provide: PURGE_INTERVAL_S, useValue: options.purgeIntervalS ?? DEFAULT_PURGE_INTERVAL_S },
      {
        provide: SecretManager,
        useFactory: () => options.secrets ?? new SecretManager(options.env ?? process.env, config.base_dir),
      },
      { provide: OperatorEvents, useFactory: () => new OperatorEvents(config.tenant_id) },
      {
        provide: DatasourceRegistry,
        inject: [SecretManager],
        useFactory: (secrets: SecretManager) => {
          const registry = new DatasourceRegistry(secrets, getLogger('nl2sql.datasource'), config.base_dir);
          config.datasources.forEach((ds, i) => registry.add(ds, `datasources[${i}]`));
          return registry;
        },
      },
      {
        provide: LlmService,
        inject: [SecretManager, OperatorEvents],
        useFactory: (secrets: SecretManager, audit: OperatorEvents) =>
          new LlmService({
            llm: config.llm ?? undefined,
            secrets,
            audit,
            maxCostUsd: config.settings.pipeline.max_cost_usd,
            discoverPlugins: config.base_dir,
            source: options.source ?? 'config',
            runtimeSecrets: new RuntimeSecretPolicy(config.secrets.runtime_allowed),
          }),
      },
      {
        provide: SchemaIndex,
        inject: [SecretManager],
        useFactory: (secrets: SecretManager) => SchemaIndex.fromConfig(config, secrets),
      },
      { provide: ResultStore, useFactory: () => new LocalResultStore(config.storage.results.path) },
      { provide: TraceStore, useFactory: () => new LocalTraceStore(config.storage.traces.path) },
      {
        provide: PlanCache,
        useFactory: () => new MemoryPlanCache(config.settings.pipeline.plan_cache_size),
      },
      { provide: VerifiedQueries, useFactory: () => new VerifiedQueries(config.verified_queries) },
      {
        provide: VerifiedQueryStore,
        useFactory: () => new LocalVerifiedQueryStore(config.storage.knowledge.path),
      },
      { provide: FeedbackStore, useFactory: () => new LocalFeedbackStore(config.storage.knowledge.path) },
      {
        provide: HookRunner,
        inject: [OperatorEvents],
        useFactory: (events: OperatorEvents) => new HookRunner(config.hooks, events),
      },
      { provide: EngineState, useFactory: () => new EngineState() },
      { provide: ModelReachability, useFactory: () => new ModelReachability() },
    ];
    const providers: Provider[] = [
      ...ports,
      ...PIPELINE_NODES,
      Pipeline,
      RunService,
      DatasourceAdmin,
      IndexAdmin,
      ResultsService,
      RetentionService,
      VerifiedQueryAdmin,
      VerifiedDrift,
      FeedbackService,
      VerifiedSuggestions,
      VerifiedEvaluation,
      EngineLifecycle,
    ];
    return {
      module: EngineModule,
      providers,
      exports: providers.map((p) => (typeof p === 'function' ? p : p.provide)),
    };
  }
}
