/**
 * One run from request to QueryResponse: reads the LLM set once, runs the pipeline, assembles the
 * wire response, writes the trace, and ends the event stream with exactly one `run.finished`
 * (the response as `result`) or one `run.failed` (an unexpected failure or a cancellation).
 */
import { randomUUID } from 'node:crypto';
import { redact } from '../../config/redact';
import type { OperatorEvents } from '../events/operator-events';
import { RunEventEmitter } from '../events/run-events';
import type { LlmService } from '../llm/llm-service';
import { getLogger } from '../logging/logger';
import type { TraceStore } from '../storage/trace-store';
import type { PipelineDeps } from './deps';
import { ModelGateway } from './model-gateway';
import { Pipeline } from './pipeline';
import { RunCancelledError, RunContext } from './run-context';
import type { RunRequest, RunState, SubQueryState } from './run-state';
import type { AnswerSource, ArtifactRef, QueryResponse, RunStatus, SubQueryResponse } from './wire';

const log = getLogger('nl2sql.run');

export interface RunServices {
  readonly deps: PipelineDeps;
  readonly pipeline: Pipeline;
  readonly llm: LlmService;
  readonly traces: TraceStore;
  readonly operator: OperatorEvents;
}

export interface RunHandle {
  readonly traceId: string;
  readonly emitter: RunEventEmitter;
  /** Resolves with the response; rejects only on an unexpected failure (already sent as run.failed). */
  readonly done: Promise<QueryResponse>;
}

/** A trace id is a plain token: it is also the `request_id` of the result routes and a folder name. */
export function newTraceId(): string {
  return randomUUID().replace(/-/g, '');
}

/** `observed` false: the caller wants only the response, not the events (see RunEventEmitter). */
export function startRun(
  services: RunServices,
  request: RunRequest,
  signal: AbortSignal,
  observed = true,
): RunHandle {
  const { deps } = services;
  const traceId = newTraceId();
  const tenant = deps.config.tenant_id;
  const emitter = new RunEventEmitter(traceId, tenant, observed);
  const done = execute(services, request, signal, traceId, emitter);
  // The caller may only follow events; an unhandled rejection must not crash the process.
  done.catch(() => undefined);
  return { traceId, emitter, done };
}

async function execute(
  services: RunServices,
  request: RunRequest,
  signal: AbortSignal,
  traceId: string,
  emitter: RunEventEmitter,
): Promise<QueryResponse> {
  const { deps, pipeline, llm, operator } = services;
  const tenant = deps.config.tenant_id;
  const settings = deps.config.settings.pipeline;
  emitter.emit('run.started', {
    question: request.question,
    user_id: request.caller.userId,
    tenant_id: tenant,
    roles: request.caller.roles,
    datasource_id: request.datasourceId,
    execute: request.execute,
  });
  const set = llm.acquire();
  const gateway = new ModelGateway(
    set,
    { maxModelCalls: settings.max_model_calls, maxCostUsd: settings.max_cost_usd },
    emitter,
    operator,
    signal,
    traceId,
  );
  const ctx = new RunContext(traceId, tenant, emitter, operator, gateway, signal);
  const state: RunState = { request, candidateDatasources: [], subQueries: [] };
  try {
    const outcome = await pipeline.run(state, ctx);
    for (const failure of ctx.internalFailures) {
      log.error('unexpected failure in a run', {
        trace_id: traceId,
        error: failure instanceof Error ? (failure.stack ?? failure.message) : String(failure),
      });
    }
    const response = assemble(state, ctx, gateway, outcome.finalAnswer, outcome.manifest, traceId);
    response.trace_path = await writeTrace(services, response, state, tenant);
    emitter.emit('run.finished', {
      status: response.status,
      duration_s: round((Date.now() - ctx.started) / 1000),
      sub_queries: response.sub_queries.length,
      errors: response.errors.length,
      user_id: request.caller.userId,
      roles: request.caller.roles,
      result: response,
    });
    return response;
  } catch (err) {
    const cancelled = err instanceof RunCancelledError;
    if (!cancelled)
      log.error('run failed', {
        trace_id: traceId,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      });
    emitter.emit('run.failed', {
      message: cancelled
        ? (err as Error).message
        : 'the run failed unexpectedly; the server log has the details',
      error_code: cancelled ? 'RUN_CANCELLED' : 'INTERNAL_ERROR',
      user_id: request.caller.userId,
      roles: request.caller.roles,
    });
    throw err;
  } finally {
    llm.release(set);
  }
}

function assemble(
  state: RunState,
  ctx: RunContext,
  gateway: ModelGateway,
  finalAnswer: QueryResponse['final_answer'],
  manifest: QueryResponse['result_manifest'],
  traceId: string,
): QueryResponse {
  const subQueries = state.subQueries.map(toWire);
  const artifactRefs: Record<string, ArtifactRef> = {};
  for (const sq of state.subQueries)
    if (sq.artifact && sq.status === 'success') artifactRefs[sq.id] = { ...sq.artifact };
  const verified = state.subQueries.find((s) => s.status === 'success' && s.verified)?.verified ?? null;
  const source: AnswerSource = verified
    ? { type: 'verified', id: verified.id, datasource_id: verified.datasourceId, params: verified.params }
    : { type: 'generated', id: null, datasource_id: null, params: null };
  return {
    sub_queries: subQueries,
    final_answer: finalAnswer,
    errors: ctx.errors,
    trace_id: traceId,
    reasoning: ctx.reasoning,
    warnings: ctx.warnings,
    artifact_refs: artifactRefs,
    status: statusOf(state, ctx),
    timings: { ...ctx.timings, total: round((Date.now() - ctx.started) / 1000) },
    usage: gateway.usage(ctx.planCacheHits),
    trace_path: null,
    truncated: state.subQueries.some((s) => s.truncated),
    result_manifest: manifest,
    source,
  };
}

/** Spec 3: error on any error entry or when no sub-query succeeded; plan_only when not executed. */
function statusOf(state: RunState, ctx: RunContext): RunStatus {
  const live = state.subQueries.filter((s) => s.status !== 'dropped');
  if (ctx.errors.length || !live.length || live.some((s) => s.status === 'error')) return 'error';
  return state.request.execute ? 'success' : 'plan_only';
}

function toWire(sq: SubQueryState): SubQueryResponse {
  return {
    id: sq.id,
    intent: sq.intent,
    sql: sq.sql,
    datasource_id: sq.datasourceId || null,
    schema_version: sq.snapshot?.schemaVersion ?? null,
    plan: sq.planSource === 'verified' || !sq.plan ? null : (sq.plan as unknown as Record<string, unknown>),
    validation: sq.validation,
    rows: sq.rows,
    status: sq.status,
    retry_count: sq.retryCount,
    plan_source: sq.planSource,
    row_cap: sq.rowCap,
    truncated: sq.truncated,
  };
}

async function writeTrace(
  services: RunServices,
  response: QueryResponse,
  state: RunState,
  tenant: string,
): Promise<string | null> {
  try {
    return await services.traces.writeTrace(tenant, response.trace_id, {
      trace_id: response.trace_id,
      tenant_id: tenant,
      question: state.request.question,
      roles: state.request.caller.roles,
      user_id: state.request.caller.userId,
      candidate_datasources: state.candidateDatasources,
      // What ran, beside the response (which already holds each sub-query's wire form).
      executed: state.subQueries.map((s) => ({
        id: s.id,
        executable_sql: s.executableSql,
        params: s.params,
      })),
      response: withoutRowData(response),
    });
  } catch (err) {
    // A trace that cannot be written never fails the run; operators see it in the log.
    log.warn('could not write the trace', { trace_id: response.trace_id, reason: redact(String(err)) });
    return null;
  }
}

/**
 * The response as the trace keeps it: each sample keeps its columns and counts but not its rows.
 * The rows are the result artifact's business (with its own retention); a trace is what ran and
 * how, and serialising a thousand-row sample into every trace was a tenth of a run's CPU.
 */
function withoutRowData(response: QueryResponse): QueryResponse {
  return {
    ...response,
    sub_queries: response.sub_queries.map((sq) =>
      sq.rows ? { ...sq, rows: { ...sq.rows, rows: [], rows_in_response: sq.rows.rows.length } } : sq,
    ),
  };
}

function round(s: number): number {
  return Math.round(s * 1e6) / 1e6;
}
