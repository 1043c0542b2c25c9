/**
 * The pipeline's topology, in one place:
 *
 *   before        datasource_resolver -> decomposer
 *   per sub-query (concurrently; each retried as a unit by the refiner up to settings.pipeline.max_retries)
 *                 [hook sub_query] -> verified_resolver | plan cache | ast_planner
 *                 -> logical_validator -> generator -> executor (when execute)
 *   after         result.manifest -> answer_synthesizer
 *
 * Nodes are plain providers with `run(...)`; this file only orders them, retries, and turns
 * failures into data (`errors[]`, statuses). Refusals and provider failures end the run with
 * status `error` (HTTP 200); nothing throws out of `run` but a cancellation.
 */
import { Injectable } from '@nestjs/common';
import { EngineError } from '../errors';
import { LlmError } from '../llm/errors';
import { roleScope } from '../policy/rbac';
import type { PipelineDeps } from './deps';
import { AnswerSynthesizer } from './nodes/answer-synthesizer';
import { AstPlanner } from './nodes/ast-planner';
import { DatasourceResolver, RefusalError } from './nodes/datasource-resolver';
import { Decomposer } from './nodes/decomposer';
import { Executor } from './nodes/executor';
import { Generator } from './nodes/generator';
import { LogicalValidator } from './nodes/logical-validator';
import { PlanRejectedError } from './nodes/plan-rejected';
import { VerifiedResolver } from './nodes/verified-resolver';
import { RunCancelledError, type RunContext } from './run-context';
import type { RunState, SubQueryState } from './run-state';
import type { FinalAnswer, ResultSummary } from './wire';

export const TOPOLOGY = {
  before: ['datasource_resolver', 'decomposer'],
  perSubQuery: ['verified_resolver', 'ast_planner', 'logical_validator', 'generator', 'executor'],
  after: ['answer_synthesizer'],
} as const;

export interface PipelineOutcome {
  readonly finalAnswer: FinalAnswer | null;
  readonly manifest: ResultSummary[];
}

@Injectable()
export class Pipeline {
  readonly resolver: DatasourceResolver;
  readonly decomposer: Decomposer;
  readonly verifiedResolver: VerifiedResolver;
  readonly planner: AstPlanner;
  readonly validator: LogicalValidator;
  readonly generator: Generator;
  readonly executor: Executor;
  readonly answer: AnswerSynthesizer;

  constructor(private readonly deps: PipelineDeps) {
    this.resolver = new DatasourceResolver(deps);
    this.decomposer = new Decomposer(deps);
    this.verifiedResolver = new VerifiedResolver(deps);
    this.planner = new AstPlanner(deps);
    this.validator = new LogicalValidator(deps);
    this.generator = new Generator(deps);
    this.executor = new Executor(deps);
    this.answer = new AnswerSynthesizer();
  }

  async run(state: RunState, ctx: RunContext): Promise<PipelineOutcome> {
    const { request } = state;
    try {
      const runHook = await this.deps.hooks.decide({
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
      await ctx.step('datasource_resolver', null, () => this.resolver.run(state, ctx));
      await ctx.step('decomposer', null, () => this.decomposer.run(state, ctx));
      await Promise.all(state.subQueries.map((sq) => this.runSubQuery(sq, state, ctx)));
    } catch (err) {
      if (err instanceof RunCancelledError) throw err;
      recordFailure(err, currentNode(err, 'pipeline'), null, ctx);
      return { finalAnswer: null, manifest: [] };
    }
    const succeeded = state.subQueries.filter((s) => s.status === 'success');
    if (!succeeded.length) return { finalAnswer: null, manifest: [] };
    const manifest: ResultSummary[] = request.execute
      ? succeeded
          .filter((s) => s.artifact)
          .map((s) => ({
            node_id: s.id,
            columns: s.artifact?.columns ?? [],
            row_count: s.rowCount ?? 0,
            truncated: s.truncated,
          }))
      : [];
    if (manifest.length) ctx.emitter.emit('result.manifest', { results: manifest });
    let finalAnswer: FinalAnswer | null = null;
    try {
      finalAnswer = await ctx.step('answer_synthesizer', null, () =>
        this.answer.run(state, ctx, request.execute),
      );
    } catch (err) {
      if (err instanceof RunCancelledError) throw err;
      recordFailure(err, 'answer_synthesizer', null, ctx);
    }
    return { finalAnswer, manifest };
  }

  /** One sub-query: hook, then attempts until one succeeds, a refusal, or the retries run out. */
  private async runSubQuery(sq: SubQueryState, state: RunState, ctx: RunContext): Promise<void> {
    const hook = await this.deps.hooks.decide({
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
    const maxRetries = this.deps.config.settings.pipeline.max_retries;
    let previous: { plan: unknown; problems: string[] } | null = null;
    for (let attempt = 0; ; attempt++) {
      sq.retryCount = attempt;
      try {
        await this.attempt(sq, state, ctx, previous);
        sq.status = 'success';
        sq.errorCode = null;
        return;
      } catch (err) {
        if (err instanceof RunCancelledError) throw err;
        const retryable = err instanceof PlanRejectedError && sq.planSource !== 'verified';
        if (retryable && attempt < maxRetries) {
          previous = { plan: sq.plan, problems: [...err.problems] };
          ctx.reasoning.push({
            node: 'refiner',
            sub_query_id: sq.id,
            attempt: attempt + 1,
            problems: err.problems,
          });
          resetAttempt(sq);
          continue;
        }
        sq.status = 'error';
        sq.errorCode = (err as { code?: string }).code ?? 'INTERNAL_ERROR';
        recordFailure(err, currentNode(err, 'ast_planner'), sq.id, ctx);
        return;
      }
    }
  }

  private async attempt(
    sq: SubQueryState,
    state: RunState,
    ctx: RunContext,
    previous: { plan: unknown; problems: string[] } | null,
  ): Promise<void> {
    const entry = await this.deps.datasources.use(sq.datasourceId);
    sq.snapshot = entry.snapshot;
    const verifiedParams = previous
      ? null
      : await ctx.step('verified_resolver', sq.id, () => this.verifiedResolver.run(sq, state, ctx));
    const cacheKey = {
      intent: sq.intent,
      datasourceId: sq.datasourceId,
      schemaVersion: entry.snapshot?.schemaVersion ?? '',
      roleScope: roleScope(this.deps.config.policies.roles, state.request.caller.roles),
    };
    if (!verifiedParams) {
      const cached = previous ? undefined : this.deps.planCache.get(cacheKey);
      if (cached) {
        sq.plan = cached;
        sq.planSource = 'cache';
        ctx.planCacheHits++;
      } else {
        await ctx.step('ast_planner', sq.id, () => this.planner.run(sq, state, ctx, previous));
      }
      await ctx.step('logical_validator', sq.id, () => this.validator.run(sq, state, ctx));
    }
    await ctx.step('generator', sq.id, () => this.generator.run(sq, verifiedParams ?? {}));
    if (state.request.execute) {
      await ctx.step('executor', sq.id, () => this.executor.run(sq, ctx));
    }
    if (sq.planSource === 'llm' && sq.plan && state.request.execute)
      this.deps.planCache.set(cacheKey, sq.plan);
  }
}

function currentNode(err: unknown, fallback: string): string {
  const node = (err as { node?: unknown })?.node;
  return typeof node === 'string' ? node : fallback;
}

function resetAttempt(sq: SubQueryState): void {
  sq.sql = null;
  sq.executableSql = null;
  sq.params = [];
  sq.rows = null;
  sq.rowCount = null;
  sq.truncated = false;
  sq.artifact = null;
  sq.validation = [];
}

function recordFailure(err: unknown, node: string, subQueryId: string | null, ctx: RunContext): void {
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
    message: 'internal error; the server log has the details',
    error_code: 'INTERNAL_ERROR',
    sub_query_id: subQueryId,
  });
  ctx.internalFailures.push(err);
}
