/**
 * The pipeline loop: reads TOPOLOGY and runs its steps in order. The steps before the sub-queries
 * run once; each sub-query runs its steps as a unit, concurrently with the others, and the refiner
 * retries the unit when a plan is rejected (up to settings.pipeline.max_retries); the steps after
 * run once. Failures become data (`errors[]`, sub-query statuses): nothing escapes `run` but a
 * cancellation. Nodes are providers; this class only orders them.
 */
import { Inject, Injectable } from '@nestjs/common';
import {
  EngineError,
  INTERNAL_DETAIL,
  isErrorCode,
  PlanRejectedError,
  RefusalError,
  RunCancelledError,
  type ErrorCode,
} from '../errors';
import { LlmError } from '../llm/errors';
import { cacheScope } from '../policy/cache-scope';
import { HookRunner } from '../policy/hooks';
import { DatasourceRegistry } from '../datasources/registry';
import { ENGINE_CONFIG, type EngineConfig } from '../engine-config';
import { AnswerSynthesizer } from './nodes/answer-synthesizer';
import { AstPlanner } from './nodes/ast-planner';
import { DatasourceResolver } from './nodes/datasource-resolver';
import { Decomposer } from './nodes/decomposer';
import { Executor } from './nodes/executor';
import { Generator } from './nodes/generator';
import { LogicalValidator } from './nodes/logical-validator';
import { VerifiedResolver } from './nodes/verified-resolver';
import { PlanCache, type PlanCacheKey } from './plan-cache';
import type { RunContext } from './run-context';
import type { AttemptFeedback, RunState, SubQueryAttempt, SubQueryState } from './run-state';
import { manifestOf } from './response-mapper';
import type { NodeTable, PipelineNode } from './node';
import { TOPOLOGY, type NodeName } from './topology';

@Injectable()
export class Pipeline {
  private readonly nodes: NodeTable;

  constructor(
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
    private readonly datasources: DatasourceRegistry,
    private readonly hooks: HookRunner,
    private readonly planCache: PlanCache,
    resolver: DatasourceResolver,
    decomposer: Decomposer,
    verifiedResolver: VerifiedResolver,
    planner: AstPlanner,
    validator: LogicalValidator,
    generator: Generator,
    executor: Executor,
    answer: AnswerSynthesizer,
  ) {
    this.nodes = {
      datasource_resolver: resolver,
      decomposer,
      verified_resolver: verifiedResolver,
      ast_planner: planner,
      logical_validator: validator,
      generator,
      executor,
      answer_synthesizer: answer,
    };
  }

  async run(state: RunState, ctx: RunContext): Promise<void> {
    const { request } = state;
    try {
      const runHook = await this.hooks.decide({
        scope: 'run',
        question: request.question,
        roles: request.caller.roles,
        userId: request.caller.userId,
        traceId: ctx.traceId,
      });
      if (!runHook.allow)
        throw new RefusalError(
          'HOOK_DENIED',
          `the run was denied by a hook: ${runHook.reason ?? 'no reason given'}`,
        );
      for (const name of TOPOLOGY.before) await this.step(name, this.nodes[name], state, null, ctx);
      await Promise.all(state.subQueries.map((sq) => this.runSubQuery(sq, state, ctx)));
    } catch (err) {
      const failed = failureOf(err, 'pipeline');
      if (isCancellation(failed.cause, ctx)) throw asCancellation(failed.cause);
      recordFailure(failed, null, ctx);
      return;
    }
    state.manifest = manifestOf(state);
    if (state.manifest.length) ctx.emitter.emit('result.manifest', { results: state.manifest });
    for (const name of TOPOLOGY.after) {
      try {
        await this.step(name, this.nodes[name], state, null, ctx);
      } catch (err) {
        const failed = failureOf(err, name);
        if (isCancellation(failed.cause, ctx)) throw asCancellation(failed.cause);
        recordFailure(failed, null, ctx);
      }
    }
  }

  /** One step with its events, unless the node does not apply to this state. */
  private async step<S>(
    name: NodeName,
    node: PipelineNode<S>,
    state: S,
    subQueryId: string | null,
    ctx: RunContext,
  ): Promise<void> {
    if (node.applies && !node.applies(state)) return;
    try {
      await ctx.step(name, subQueryId, () => node.run(state, ctx));
    } catch (err) {
      throw new StepFailed(name, err);
    }
  }

  /** One sub-query: hook, then attempts until one succeeds, a refusal, or the retries run out. */
  private async runSubQuery(sq: SubQueryState, state: RunState, ctx: RunContext): Promise<void> {
    const hook = await this.hooks.decide({
      scope: 'sub_query',
      question: state.request.question,
      roles: state.request.caller.roles,
      userId: state.request.caller.userId,
      traceId: ctx.traceId,
      subQuery: { id: sq.id, intent: sq.intent, datasourceId: sq.datasourceId },
    });
    if (!hook.allow) {
      sq.status = 'dropped';
      ctx.warn({
        code: 'SUB_QUERY_DROPPED',
        node: 'hooks',
        message: `sub-query ${sq.id} was dropped by a hook: ${hook.reason ?? ''}`.trim(),
        sub_query_id: sq.id,
      });
      return;
    }
    const maxRetries = this.config.settings.pipeline.max_retries;
    let previous: AttemptFeedback | null = null;
    for (let attempt = 0; ; attempt++) {
      sq.retryCount = attempt;
      try {
        await this.attempt({ run: state, sq, previous }, ctx);
        sq.status = 'success';
        sq.errorCode = null;
        return;
      } catch (err) {
        // A failure before the first step (the datasource could not be opened) is the planner's.
        const failed = failureOf(err, 'ast_planner');
        const { cause } = failed;
        if (isCancellation(cause, ctx)) throw asCancellation(cause);
        const retryable = cause instanceof PlanRejectedError && sq.planSource !== 'verified';
        if (retryable && attempt < maxRetries) {
          previous = { plan: sq.plan, draft: sq.draftSql, problems: [...cause.problems] };
          ctx.reasoning.push({
            node: 'refiner',
            sub_query_id: sq.id,
            attempt: attempt + 1,
            problems: cause.problems,
          });
          resetAttempt(sq);
          continue;
        }
        sq.status = 'error';
        sq.errorCode = errorCodeOf(cause);
        recordFailure(failed, sq.id, ctx);
        return;
      }
    }
  }

  /** The per-sub-query steps of TOPOLOGY; a cached plan stands in for the planner on a first attempt. */
  private async attempt(attempt: SubQueryAttempt, ctx: RunContext): Promise<void> {
    const { sq, run: state, previous } = attempt;
    const entry = await this.datasources.use(sq.datasourceId);
    sq.snapshot = entry.snapshot;
    const cacheKey: PlanCacheKey = {
      intent: sq.intent,
      datasourceId: sq.datasourceId,
      schemaVersion: entry.snapshot?.schemaVersion ?? '',
      roleScope: cacheScope(
        this.config.policies.roles,
        state.request.caller.roles,
        state.request.caller.attributes,
      ),
    };
    for (const name of TOPOLOGY.perSubQuery) {
      if (name === 'ast_planner' && !sq.plan && !previous) this.fromCache(sq, cacheKey, ctx);
      await this.step(name, this.nodes[name], attempt, sq.id, ctx);
    }
    if (sq.planSource === 'llm' && sq.plan && state.request.execute) this.planCache.set(cacheKey, sq.plan);
  }

  private fromCache(sq: SubQueryState, key: PlanCacheKey, ctx: RunContext): void {
    const cached = this.planCache.get(key);
    if (!cached) return;
    sq.plan = cached;
    sq.planSource = 'cache';
    ctx.planCacheHits++;
  }
}

/** A cancelled run, however the cancellation surfaced (a check between steps, or a model call cut short). */
function isCancellation(err: unknown, ctx: RunContext): boolean {
  return err instanceof RunCancelledError || ctx.signal.aborted;
}

function asCancellation(err: unknown): RunCancelledError {
  return err instanceof RunCancelledError ? err : new RunCancelledError();
}

/** A step's failure as the loop saw it: which step, and what it threw. */
class StepFailed extends Error {
  constructor(
    readonly node: NodeName,
    override readonly cause: unknown,
  ) {
    super(`step ${node} failed`);
  }
}

/** What failed and where: the step that threw, or `fallback` for a failure outside every step. */
function failureOf(err: unknown, fallback: string): { node: string; cause: unknown } {
  return err instanceof StepFailed ? { node: err.node, cause: err.cause } : { node: fallback, cause: err };
}

/** The code a failure reports: its own when it has one of the closed list, else INTERNAL_ERROR. */
function errorCodeOf(err: unknown): ErrorCode {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && isErrorCode(code) ? code : 'INTERNAL_ERROR';
}

/** A retry starts from the question again; the rejected plan travels only as feedback. */
function resetAttempt(sq: SubQueryState): void {
  sq.plan = null;
  sq.draftSql = null;
  sq.planSource = 'llm';
  sq.sql = null;
  sq.executableSql = null;
  sq.params = [];
  sq.rows = null;
  sq.rowCount = null;
  sq.truncated = false;
  sq.artifact = null;
  sq.validation = [];
  sq.policiesApplied = [];
}

function recordFailure(
  { node, cause: err }: { node: string; cause: unknown },
  subQueryId: string | null,
  ctx: RunContext,
): void {
  if (err instanceof LlmError) {
    ctx.errors.push({ ...err.toErrorEntry(node), sub_query_id: subQueryId });
    return;
  }
  if (err instanceof EngineError) {
    ctx.error({ node, message: err.message, error_code: err.code, sub_query_id: subQueryId });
    return;
  }
  // An unexpected failure: a generic entry for the caller, the details for the server log.
  ctx.error({
    node,
    message: INTERNAL_DETAIL,
    error_code: 'INTERNAL_ERROR',
    sub_query_id: subQueryId,
  });
  ctx.internalFailures.push(err);
}
