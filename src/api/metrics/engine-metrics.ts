/**
 * The service's Prometheus metrics, one registry per app (several apps may share a process, as
 * in the tests). Run, step, model, SQL and plan-cache figures come from the engine's operator
 * events; pool use is read from the datasources at each scrape; HTTP figures from a middleware.
 * No label carries a question, a value, a role or a secret: only node, agent, model, datasource
 * and route names from the configuration and the code, statuses and error codes.
 */
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Subscription } from 'rxjs';
import { DatasourceRegistry } from '../../engine/datasources/registry';
import { OperatorEvents, type OperatorEvent } from '../../engine/events/operator-events';
import { VerifiedQueries } from '../../engine/verified/verified-queries';

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

@Injectable()
export class EngineMetrics implements OnModuleDestroy {
  readonly registry = new Registry();
  private readonly subscription: Subscription;

  private readonly runs = new Counter({
    name: 'nl2sql_runs_total',
    help: "Runs by final status and answer source (the response's source.type; none when it failed)",
    labelNames: ['status', 'source'] as const,
    registers: [this.registry],
  });
  private readonly runSeconds = new Histogram({
    name: 'nl2sql_run_duration_seconds',
    help: 'Wall time of a run, by final status',
    labelNames: ['status'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  private readonly steps = new Histogram({
    name: 'nl2sql_step_duration_seconds',
    help: 'Time of one pipeline step, by node and outcome',
    labelNames: ['node', 'ok'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  private readonly modelCalls = new Counter({
    name: 'nl2sql_model_calls_total',
    help: 'Model calls by agent, model, step and outcome',
    labelNames: ['agent', 'model', 'node', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly tokens = new Counter({
    name: 'nl2sql_model_tokens_total',
    help: 'Tokens reported by the provider, by agent, model and kind',
    labelNames: ['agent', 'model', 'kind'] as const,
    registers: [this.registry],
  });
  private readonly cost = new Counter({
    name: 'nl2sql_model_cost_usd_total',
    help: 'Cost of model calls in US dollars (calls with a known price), by agent and model',
    labelNames: ['agent', 'model'] as const,
    registers: [this.registry],
  });
  private readonly providerErrors = new Counter({
    name: 'nl2sql_provider_errors_total',
    help: 'Failed model calls by agent, model and error code',
    labelNames: ['agent', 'model', 'code'] as const,
    registers: [this.registry],
  });
  private readonly sqlSeconds = new Histogram({
    name: 'nl2sql_sql_duration_seconds',
    help: 'Time of a statement, rows streamed to its result included, by datasource and outcome',
    labelNames: ['datasource_id', 'ok'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  private readonly sqlRows = new Counter({
    name: 'nl2sql_sql_rows_total',
    help: 'Rows read by statements, by datasource',
    labelNames: ['datasource_id'] as const,
    registers: [this.registry],
  });
  private readonly planCacheHits = new Counter({
    name: 'nl2sql_plan_cache_hits_total',
    help: 'Sub-queries planned from the plan cache (no model call)',
    registers: [this.registry],
  });
  private readonly feedback = new Counter({
    name: 'nl2sql_feedback_total',
    help: 'Ratings of runs recorded (POST /api/v1/query/{request_id}/feedback), by rating',
    labelNames: ['rating'] as const,
    registers: [this.registry],
  });
  private readonly verifiedChanges = new Counter({
    name: 'nl2sql_verified_query_status_changes_total',
    help: 'Verified queries disabled or enabled again by a re-check after a schema change, by new status',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly httpRequests = new Counter({
    name: 'nl2sql_http_requests_total',
    help: 'HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpSeconds = new Histogram({
    name: 'nl2sql_http_request_duration_seconds',
    help: 'HTTP request time by method and route template (a stream lasts as long as its run)',
    labelNames: ['method', 'route'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });

  constructor(
    operator: OperatorEvents,
    private readonly datasources: DatasourceRegistry,
    verified: VerifiedQueries,
  ) {
    const registry = this.registry;
    const sources = this.datasources;
    new Gauge({
      name: 'nl2sql_verified_queries',
      help: 'Verified queries now, by status (enabled, disabled by a schema change, unchecked) and origin (config, runtime)',
      labelNames: ['status', 'origin'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const status of ['enabled', 'disabled', 'unchecked'] as const)
          for (const origin of ['config', 'runtime'] as const) this.set({ status, origin }, 0);
        for (const e of verified.list()) this.inc({ status: e.status, origin: e.origin });
      },
    });
    new Gauge({
      name: 'nl2sql_datasource_active_statements',
      help: 'Statements open now per datasource (each holds a pooled connection or slot)',
      labelNames: ['datasource_id'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const e of sources.all()) this.set({ datasource_id: e.config.id }, e.adapter.activeStatements);
      },
    });
    // Process figures under their usual names: CPU, memory, handles, event-loop lag, GC.
    collectDefaultMetrics({ register: registry });
    this.subscription = operator.subscribe((e) => this.record(e));
  }

  onModuleDestroy(): void {
    this.subscription.unsubscribe();
  }

  private record(e: OperatorEvent): void {
    switch (e.name) {
      case 'run.ended': {
        const { status, source, duration_s, plan_cache_hits } = e.data;
        this.runs.inc({ status, source: source ?? 'none' });
        this.runSeconds.observe({ status }, amount(duration_s));
        if (plan_cache_hits > 0) this.planCacheHits.inc(plan_cache_hits);
        return;
      }
      case 'node.finished':
        this.steps.observe({ node: e.data.node, ok: String(e.data.ok) }, amount(e.data.seconds));
        return;
      case 'model.call': {
        const d = e.data;
        const labels = { agent: d.agent, model: d.model };
        this.modelCalls.inc({ ...labels, node: d.node, outcome: d.error ? 'error' : 'ok' });
        if (d.error) this.providerErrors.inc({ ...labels, code: d.error });
        this.tokens.inc({ ...labels, kind: 'input' }, amount(d.input_tokens));
        this.tokens.inc({ ...labels, kind: 'cached_input' }, amount(d.cached_input_tokens));
        this.tokens.inc({ ...labels, kind: 'output' }, amount(d.output_tokens));
        this.tokens.inc({ ...labels, kind: 'reasoning' }, amount(d.reasoning_tokens));
        if (d.cost !== null) this.cost.inc(labels, amount(d.cost));
        return;
      }
      case 'sql.executed': {
        const { datasource_id, ok, seconds, rows } = e.data;
        this.sqlSeconds.observe({ datasource_id, ok: String(ok) }, amount(seconds));
        this.sqlRows.inc({ datasource_id }, amount(rows));
        return;
      }
      case 'feedback.recorded':
        this.feedback.inc({ rating: e.data.rating });
        return;
      case 'verified_query.status_changed':
        this.verifiedChanges.inc({ status: e.data.status });
        return;
      case 'policy.denied':
      case 'hook.decision':
      case 'audit.llm.changed':
      case 'audit.datasource.added':
      case 'audit.datasource.removed':
      case 'audit.verified_query.added':
      case 'audit.verified_query.removed':
        // Counted nowhere: what they say is about roles and reasons, which no label may carry.
        return;
    }
  }
}

/** prom-client throws on a negative or non-finite amount, and a subscriber must never throw into a run. */
function amount(v: number): number {
  return Number.isFinite(v) && v > 0 ? v : 0;
}
