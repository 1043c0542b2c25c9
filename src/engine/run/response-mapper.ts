/**
 * The one mapping from a run's state to what leaves the engine: the wire QueryResponse (spec 2),
 * the result manifest, and the trace written beside it.
 */
import type { QuestionUsage } from '../llm/usage';
import type { RunContext } from './run-context';
import type { RunState, SubQueryState } from './run-state';
import type {
  AnswerSource,
  ArtifactRef,
  QueryResponse,
  ResultSummary,
  RunStatus,
  SubQueryResponse,
} from './query-response';

/** What each executed sub-query saved, for `result.manifest` and `result_manifest`. */
export function manifestOf(state: RunState): ResultSummary[] {
  if (!state.request.execute) return [];
  return state.subQueries
    .filter((s) => s.status === 'success' && s.artifact)
    .map((s) => ({
      node_id: s.id,
      columns: s.artifact?.columns ?? [],
      row_count: s.rowCount ?? 0,
      truncated: s.truncated,
    }));
}

export function toQueryResponse(state: RunState, ctx: RunContext, usage: QuestionUsage): QueryResponse {
  const artifactRefs: Record<string, ArtifactRef> = {};
  for (const sq of state.subQueries)
    if (sq.artifact && sq.status === 'success') artifactRefs[sq.id] = { ...sq.artifact };
  const verified = state.subQueries.find((s) => s.status === 'success' && s.verified)?.verified ?? null;
  const source: AnswerSource = verified
    ? { type: 'verified', id: verified.id, datasource_id: verified.datasourceId, params: verified.params }
    : { type: 'generated', id: null, datasource_id: null, params: null };
  return {
    sub_queries: state.subQueries.map(toSubQueryResponse),
    final_answer: state.finalAnswer,
    errors: ctx.errors,
    trace_id: ctx.traceId,
    reasoning: ctx.reasoning,
    warnings: ctx.warnings,
    artifact_refs: artifactRefs,
    status: statusOf(state, ctx),
    timings: { ...ctx.timings, total: round((Date.now() - ctx.started) / 1000) },
    usage,
    trace_path: null,
    truncated: state.subQueries.some((s) => s.truncated),
    result_manifest: state.manifest,
    source,
  };
}

/** Spec 3: error on any error entry or when no sub-query succeeded; plan_only when not executed. */
function statusOf(state: RunState, ctx: RunContext): RunStatus {
  const live = state.subQueries.filter((s) => s.status !== 'dropped');
  if (ctx.errors.length || !live.length || live.some((s) => s.status === 'error')) return 'error';
  return state.request.execute ? 'success' : 'plan_only';
}

function toSubQueryResponse(sq: SubQueryState): SubQueryResponse {
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
    row_cap: sq.appliedRowCap,
    truncated: sq.truncated,
    policies_applied: sq.policiesApplied.map((p) => ({ kind: p.kind, target: p.target, role: p.role })),
  };
}

/** The trace of a run: what ran and how, beside the response (redacted by the trace store). */
export function toTrace(response: QueryResponse, state: RunState, tenant: string): object {
  return {
    trace_id: response.trace_id,
    tenant_id: tenant,
    question: state.request.question,
    roles: state.request.caller.roles,
    user_id: state.request.caller.userId,
    candidate_datasources: state.candidateDatasources,
    executed: state.subQueries.map((s) => ({
      id: s.id,
      executable_sql: s.executableSql,
      params: s.params,
    })),
    response: withoutRowData(response),
  };
}

/**
 * The response as the trace keeps it: each sample keeps its columns and counts but not its rows.
 * The rows are the result artifact's business (with its own retention); a trace is what ran and how.
 */
function withoutRowData(response: QueryResponse): QueryResponse {
  return {
    ...response,
    sub_queries: response.sub_queries.map((sq) =>
      sq.rows ? { ...sq, rows: { ...sq.rows, rows: [], rows_in_response: sq.rows.rows.length } } : sq,
    ),
  };
}

export function round(s: number): number {
  return Math.round(s * 1e6) / 1e6;
}
