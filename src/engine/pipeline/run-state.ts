/**
 * What a run knows as it goes: the question, the caller, the sub-queries and their attempts.
 * Nodes read and write this state; the pipeline turns it into the wire QueryResponse at the end.
 */
import type { SchemaSnapshot } from '../datasources/schema';
import type { Query } from '../plan/types';
import type { ArtifactRef, PlanSource, RowSample, SubQueryStatus, ValidationCheck } from './wire';

export interface Caller {
  readonly roles: readonly string[];
  readonly userId: string | null;
}

export interface RunRequest {
  readonly question: string;
  readonly datasourceId: string | null;
  readonly execute: boolean;
  readonly caller: Caller;
}

export interface VerifiedMatch {
  readonly id: string;
  readonly datasourceId: string;
  readonly sql: string;
  readonly params: Record<string, unknown>;
}

export interface SubQueryState {
  readonly id: string;
  intent: string;
  datasourceId: string;
  snapshot: SchemaSnapshot | null;
  plan: Query | null;
  planSource: PlanSource;
  /** Problems of the last attempt, fed back to the planner by the refiner. */
  feedback: string[];
  validation: ValidationCheck[];
  /** What the response shows: the display form (values inlined), or the verified query's own SQL. */
  sql: string | null;
  /** What runs: placeholders in the datasource's dialect, values in `params`. */
  executableSql: string | null;
  params: readonly unknown[];
  rowCap: number | null;
  /** The cap the compiler bounded the SQL with (whatever the plan's own LIMIT). */
  effectiveCap: number | null;
  rows: RowSample | null;
  rowCount: number | null;
  truncated: boolean;
  artifact: ArtifactRef | null;
  status: SubQueryStatus;
  retryCount: number;
  verified: VerifiedMatch | null;
  /** Set when the attempt ended with a refusal (no retry helps). */
  refused: boolean;
  /** The last error of this sub-query, if it ended in error. */
  errorCode: string | null;
}

export function newSubQuery(id: string, intent: string, datasourceId: string): SubQueryState {
  return {
    id,
    intent,
    datasourceId,
    snapshot: null,
    plan: null,
    planSource: 'llm',
    feedback: [],
    validation: [],
    sql: null,
    executableSql: null,
    params: [],
    rowCap: null,
    effectiveCap: null,
    rows: null,
    rowCount: null,
    truncated: false,
    artifact: null,
    status: 'error',
    retryCount: 0,
    verified: null,
    refused: false,
    errorCode: null,
  };
}

export interface RunState {
  readonly request: RunRequest;
  /** Datasources the resolver chose, best first. */
  candidateDatasources: string[];
  subQueries: SubQueryState[];
}
