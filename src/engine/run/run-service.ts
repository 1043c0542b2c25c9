/**
 * A run's one owner. `stream(request)` returns a cold Observable of the run's events: subscribing
 * starts the run, unsubscribing cancels it (before its next step or model call), and it completes
 * after exactly one `run.finished` (the response as `result`) or one `run.failed`. `run()` is the
 * last value of the same Observable, its terminal event turned into the response or an error.
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { lastValueFrom, Observable, tap } from 'rxjs';
import { redact } from '../../config/redact';
import { ENGINE_CONFIG, type EngineConfig } from '../engine-config';
import { DatasourceRegistry } from '../datasources/registry';
import { verifiedVisibleTo } from '../policy/verified-visibility';
import { EngineError, RunCancelledError } from '../errors';
import { OperatorEvents, type OperatorEventMap } from '../events/operator-events';
import { RunEventEmitter, type RunEvent, type RunEventMap } from '../events/run-events';
import { LlmService } from '../llm/llm-service';
import { getLogger } from '../logging/logger';
import { TraceStore } from '../storage/trace-store';
import { EngineState } from './engine-state';
import { ModelGateway } from './model-gateway';
import { Pipeline } from './pipeline';
import { RunContext } from './run-context';
import { newRunState, type Caller, type ParamValue, type RunRequest, type RunState } from './run-state';
import { paramProblems, VerifiedQueries } from '../verified/verified-queries';
import { round, toQueryResponse, toTrace } from './response-mapper';
import type { QueryResponse } from './query-response';

const log = getLogger('nl2sql.run');

export interface StreamOptions {
  /** false: only the terminal event is emitted (nobody follows the steps). Default true. */
  readonly follow?: boolean;
  /** Cancels the run like an unsubscribe, but the run still ends with its `run.failed`. */
  readonly signal?: AbortSignal;
}

/** A trace id is a plain token: it is also the `request_id` of the result routes and a folder name. */
export function newTraceId(): string {
  return randomUUID().replace(/-/g, '');
}

@Injectable()
export class RunService {
  constructor(
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
    private readonly pipeline: Pipeline,
    private readonly llm: LlmService,
    private readonly traces: TraceStore,
    private readonly operator: OperatorEvents,
    private readonly engine: EngineState,
    private readonly verified: VerifiedQueries,
    private readonly datasources: DatasourceRegistry,
  ) {}

  /** Throws at once (before any event) when the engine is closed or the question is blank. */
  stream(request: RunRequest, options: StreamOptions = {}): Observable<RunEvent> {
    this.admit(request);
    const follow = options.follow ?? true;
    return new Observable<RunEvent>((subscriber) => {
      const abort = new AbortController();
      const onAbort = () => abort.abort();
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (options.signal?.aborted) abort.abort();
      const emitter = new RunEventEmitter(
        newTraceId(),
        this.config.tenant_id,
        (event) => subscriber.next(event),
        follow,
      );
      // The run reports its own failures as `run.failed`; the Observable itself never errors.
      this.execute(request, abort.signal, emitter)
        .catch(() => undefined)
        .finally(() => {
          options.signal?.removeEventListener('abort', onAbort);
          subscriber.complete();
        });
      return () => abort.abort();
    });
  }

  /**
   * Runs a question to its answer. Pipeline failures are data in the response (status `error`);
   * this rejects only on a cancellation (RUN_CANCELLED) or an unexpected failure (INTERNAL_ERROR).
   */
  async run(
    request: RunRequest,
    signal?: AbortSignal,
    /** Follows the run's events as they come (steps, answer deltas); without it only the end is built. */
    onEvent?: (event: RunEvent) => void,
  ): Promise<QueryResponse> {
    const events = this.stream(request, { follow: onEvent !== undefined, signal });
    const last = await lastValueFrom(onEvent ? events.pipe(tap(onEvent)) : events);
    if (last.name === 'run.finished') return last.data.result;
    if (last.name === 'run.failed' && last.data.error_code === 'RUN_CANCELLED')
      throw new RunCancelledError(last.data.message);
    // The Observable completes after its terminal event and never before, so this is run.failed.
    throw new EngineError('INTERNAL_ERROR', last.name === 'run.failed' ? last.data.message : last.name);
  }

  /**
   * Runs one verified query by id with the caller's values (typed as declared): planned with no
   * model call, validated against the caller's role, compiled and run like any plan. NOT_FOUND for
   * an unknown id, REQUEST_INVALID naming each value that does not fit.
   */
  runVerified(
    id: string,
    params: Record<string, unknown>,
    caller: Caller,
    options: { execute?: boolean; signal?: AbortSignal; onEvent?: (event: RunEvent) => void } = {},
  ): Promise<QueryResponse> {
    const vq = this.verified.get(id);
    if (!vq) {
      // Only the ids this caller may run: a listing must not name a query over a denied table.
      const visible = verifiedVisibleTo(
        caller.roles,
        this.config.policies.roles,
        (ds) => this.datasources.get(ds)?.snapshot,
      );
      const known = this.verified
        .all()
        .filter(visible)
        .map((v) => v.id);
      throw new EngineError(
        'NOT_FOUND',
        `unknown verified query '${id}' (known: ${known.join(', ') || 'none'})`,
      );
    }
    const problems = paramProblems(vq, params);
    if (problems.length)
      throw new EngineError('REQUEST_INVALID', `verified query '${id}': ${problems.join('; ')}`);
    return this.run(
      {
        question: vq.question,
        datasourceId: vq.datasource_id,
        execute: options.execute ?? true,
        caller,
        verified: { id, params: params as Record<string, ParamValue> },
      },
      options.signal,
      options.onEvent,
    );
  }

  /** The simplest programmatic call: a question, optionally a datasource and the caller's roles. */
  ask(
    question: string,
    options: {
      datasourceId?: string;
      execute?: boolean;
      roles?: readonly string[];
      userId?: string;
      /** The caller's attributes, which row filters read as `:user.<name>`. */
      attributes?: Readonly<Record<string, string>>;
      signal?: AbortSignal;
    } = {},
  ): Promise<QueryResponse> {
    return this.run(
      {
        question,
        datasourceId: options.datasourceId ?? null,
        execute: options.execute ?? true,
        caller: {
          roles: options.roles ?? [],
          userId: options.userId ?? null,
          attributes: options.attributes,
        },
      },
      options.signal,
    );
  }

  private admit(request: RunRequest): void {
    if (this.engine.closed) throw new EngineError('ENGINE_CLOSED', 'the engine is closed');
    // The HTTP routes refuse a blank question with a 422 first; programmatic callers meet it here.
    if (!request.question.trim()) throw new EngineError('REQUEST_INVALID', 'the question is blank');
  }

  private async execute(request: RunRequest, signal: AbortSignal, emitter: RunEventEmitter): Promise<void> {
    const tenant = this.config.tenant_id;
    const settings = this.config.settings.pipeline;
    const traceId = emitter.traceId;
    emitter.emit('run.started', {
      question: request.question,
      user_id: request.caller.userId,
      tenant_id: tenant,
      roles: request.caller.roles,
      datasource_id: request.datasourceId,
      execute: request.execute,
      ...startedAttributes(request.caller.attributes ?? {}, this.config.api.event_attribute_values ?? false),
    });
    const set = this.llm.acquire();
    const gateway = new ModelGateway(
      set,
      { maxModelCalls: settings.max_model_calls, maxCostUsd: settings.max_cost_usd },
      emitter,
      this.operator,
      signal,
      traceId,
    );
    const ctx = new RunContext(traceId, tenant, emitter, this.operator, gateway, signal);
    const state = newRunState(request);
    let ended: Pick<OperatorEventMap['run.ended'], 'status' | 'source'> = { status: 'failed', source: null };
    try {
      await this.pipeline.run(state, ctx);
      for (const failure of ctx.internalFailures) {
        log.error('unexpected failure in a run', { trace_id: traceId, error: describe(failure) });
      }
      const response = toQueryResponse(state, ctx, gateway.usage(ctx.planCacheHits));
      response.trace_path = await this.writeTrace(response, state);
      ended = { status: response.status, source: response.source.type };
      emitter.emit('run.finished', {
        status: response.status,
        duration_s: round((Date.now() - ctx.started) / 1000),
        sub_queries: response.sub_queries.length,
        errors: response.errors.length,
        user_id: request.caller.userId,
        roles: request.caller.roles,
        result: response,
      });
    } catch (err) {
      const cancelled = err instanceof RunCancelledError;
      ended = { status: cancelled ? 'cancelled' : 'failed', source: null };
      if (!cancelled) log.error('run failed', { trace_id: traceId, error: describe(err) });
      emitter.emit('run.failed', {
        message: cancelled
          ? (err as Error).message
          : 'the run failed unexpectedly; the server log has the details',
        error_code: cancelled ? 'RUN_CANCELLED' : 'INTERNAL_ERROR',
        user_id: request.caller.userId,
        roles: request.caller.roles,
      });
    } finally {
      this.llm.release(set);
      // For operators (metrics, tests): every run's end, whether or not anybody followed it.
      this.operator.emit(
        'run.ended',
        {
          ...ended,
          duration_s: round((Date.now() - ctx.started) / 1000),
          model_calls: gateway.callCount,
          plan_cache_hits: ctx.planCacheHits,
        },
        traceId,
      );
    }
  }

  private async writeTrace(response: QueryResponse, state: RunState): Promise<string | null> {
    try {
      const tenant = this.config.tenant_id;
      return await this.traces.writeTrace(tenant, response.trace_id, toTrace(response, state, tenant));
    } catch (err) {
      // A trace that cannot be written never fails the run; operators see it in the log.
      log.warn('could not write the trace', { trace_id: response.trace_id, reason: redact(String(err)) });
      return null;
    }
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

/**
 * The caller's attributes as `run.started` shows them: their names, and their values only when
 * `api.event_attribute_values` is set (an attribute may say more about a person than a role does).
 */
function startedAttributes(
  attributes: Readonly<Record<string, string>>,
  withValues: boolean,
): Pick<RunEventMap['run.started'], 'attributes' | 'attribute_values'> {
  const names = Object.keys(attributes).sort();
  return withValues ? { attributes: names, attribute_values: { ...attributes } } : { attributes: names };
}
