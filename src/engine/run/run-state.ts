/**
 * What a run knows as it goes: the question, the caller, the sub-queries and their attempts.
 * Nodes read and write this state; the pipeline turns it into the wire QueryResponse at the end.
 */
import type { SchemaSnapshot } from '../datasources/schema';
import type { ErrorCode } from '../errors';
import type { ParamValue } from '../verified/verified-queries';
import type { Query } from '../plan/types';
import type { CallerAttributes } from '../policy/row-filters';
import type { PolicyApplied } from '../policy/table-policies';
import type {
  ArtifactRef,
  FinalAnswer,
  PlanSource,
  ResultSummary,
  RowSample,
  SubQueryStatus,
  ValidationCheck,
} from './query-response';

export interface Caller {
  readonly roles: readonly string[];
  readonly userId: string | null;
  /** Attributes the trusted proxy set (`api.attribute_header`), read by row filters; none when absent. */
  readonly attributes?: CallerAttributes;
}

export interface RunRequest {
  readonly question: string;
  readonly datasourceId: string | null;
  readonly execute: boolean;
  readonly caller: Caller;
  /** Run this verified query with these values (checked beforehand): no model call to plan. */
  readonly verified?: { readonly id: string; readonly params: Record<string, ParamValue> } | null;
  /**
   * false: no verified query answers the run or shows the planner an example, so the model plans
   * every question (`nl2sql eval` measures the model this way). Default true.
   */
  readonly useVerified?: boolean;
}

export type { ParamValue };

export interface VerifiedMatch {
  readonly id: string;
  readonly datasourceId: string;
  readonly sql: string;
  readonly params: Record<string, unknown>;
  /** Matched and filled with no model call (the verified-query fast path). */
  readonly direct: boolean;
}

export interface SubQueryState {
  readonly id: string;
  intent: string;
  datasourceId: string;
  snapshot: SchemaSnapshot | null;
  plan: Query | null;
  planSource: PlanSource;
  validation: ValidationCheck[];
  /** The model's SQL draft (planner format `sql`), kept for the refiner's feedback; it never runs. */
  draftSql: string | null;
  /** What the response shows: the display form (values inlined), or the verified query's own SQL. */
  sql: string | null;
  /** What runs: placeholders in the datasource's dialect, values in `params`. */
  executableSql: string | null;
  params: readonly unknown[];
  /** The datasource's row cap (`limits.row_cap`) the SQL was compiled with: the executor keeps at most this many rows. */
  datasourceRowCap: number | null;
  /** That cap when it bounded the SQL, null when the plan's own LIMIT was smaller (the wire's `row_cap`). */
  appliedRowCap: number | null;
  rows: RowSample | null;
  rowCount: number | null;
  truncated: boolean;
  artifact: ArtifactRef | null;
  status: SubQueryStatus;
  retryCount: number;
  verified: VerifiedMatch | null;
  /** The verified query's parameter values, when one answers (bound by the generator). */
  verifiedParams: Readonly<Record<string, ParamValue>> | null;
  /** The last error of this sub-query, if it ended in error. */
  errorCode: ErrorCode | null;
  /** The row filters, masks and model restriction the policy decision applied (`policies_applied`). */
  policiesApplied: readonly PolicyApplied[];
}

export function newSubQuery(id: string, intent: string, datasourceId: string): SubQueryState {
  return {
    id,
    intent,
    datasourceId,
    snapshot: null,
    plan: null,
    planSource: 'llm',
    validation: [],
    draftSql: null,
    sql: null,
    executableSql: null,
    params: [],
    datasourceRowCap: null,
    appliedRowCap: null,
    rows: null,
    rowCount: null,
    truncated: false,
    artifact: null,
    status: 'error',
    retryCount: 0,
    verified: null,
    verifiedParams: null,
    errorCode: null,
    policiesApplied: [],
  };
}

export interface RunState {
  readonly request: RunRequest;
  /** Datasources the resolver chose, best first. */
  candidateDatasources: string[];
  subQueries: SubQueryState[];
  /** What the executed sub-queries saved, once they have all ended. */
  manifest: ResultSummary[];
  /** The answer synthesizer's answer, once it has run. */
  finalAnswer: FinalAnswer | null;
}

export function newRunState(request: RunRequest): RunState {
  return { request, candidateDatasources: [], subQueries: [], manifest: [], finalAnswer: null };
}

/** What the refiner feeds back to the planner from the previous attempt of a sub-query. */
export interface AttemptFeedback {
  readonly plan: unknown;
  /** The SQL draft the plan came from (planner format `sql`). */
  readonly draft: string | null;
  readonly problems: readonly string[];
}

/** The state of the per-sub-query nodes: the run, the sub-query, and the previous attempt's feedback. */
export interface SubQueryAttempt {
  readonly run: RunState;
  readonly sq: SubQueryState;
  readonly previous: AttemptFeedback | null;
}
