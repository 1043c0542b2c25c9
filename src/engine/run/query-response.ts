/**
 * The run result in the spec's wire shapes (section 2). `/api/v1/query` returns exactly this, and
 * `run.finished` carries it as `result`, so the HTTP response cannot drift from the engine's result.
 */
import type { ErrorCode } from '../errors';
import type { ArtifactRef } from '../storage/result-store';
import type { CallRecord, QuestionUsage } from '../llm/usage';

export type RunStatus = 'success' | 'error' | 'plan_only';
export type SubQueryStatus = 'success' | 'error' | 'dropped';
export type PlanSource = 'llm' | 'cache' | 'verified' | 'supplied' | 'approved' | 'chosen';

export interface ValidationCheck {
  name: string;
  passed: boolean;
  message: string;
}

export interface RowSample {
  columns: string[];
  rows: unknown[][];
  total_rows: number;
}

export interface SubQueryResponse {
  id: string;
  intent: string;
  sql: string | null;
  datasource_id: string | null;
  schema_version: string | null;
  plan: Record<string, unknown> | null;
  validation: ValidationCheck[];
  rows: RowSample | null;
  status: SubQueryStatus;
  retry_count: number;
  plan_source: PlanSource;
  row_cap: number | null;
  truncated: boolean;
  /** Row filters, masks and the model restriction that shaped this sub-query (issue 28). */
  policies_applied: PolicyAppliedEntry[];
}

export interface PolicyAppliedEntry {
  kind: 'row_filter' | 'mask' | 'model_sees';
  target: string;
  role: string;
}

export interface PipelineErrorEntry {
  node: string;
  message: string;
  error_code: ErrorCode;
  severity: 'ERROR' | 'WARNING';
  provider: string | null;
  provider_response: unknown;
  sub_query_id?: string | null;
}

export interface RunWarning {
  code: string;
  node: string;
  message: string;
  sub_query_id: string | null;
  detail: Record<string, unknown> | null;
}

export type { ArtifactRef };

export interface ResultSummary {
  node_id: string;
  columns: string[];
  row_count: number;
  truncated: boolean;
}

export interface AnswerSource {
  type: 'verified' | 'generated';
  id: string | null;
  datasource_id: string | null;
  params: Record<string, unknown> | null;
}

export interface FinalAnswer {
  summary: string;
  format_type: 'text' | 'table' | 'number' | 'list' | 'empty' | 'error';
  content: string;
  warnings: string[];
  truncated: boolean;
}

export interface QueryResponse {
  sub_queries: SubQueryResponse[];
  final_answer: FinalAnswer | null;
  errors: PipelineErrorEntry[];
  trace_id: string;
  reasoning: Record<string, unknown>[];
  warnings: RunWarning[];
  artifact_refs: Record<string, ArtifactRef>;
  status: RunStatus;
  timings: Record<string, number>;
  usage: QuestionUsage;
  trace_path: string | null;
  truncated: boolean;
  result_manifest: ResultSummary[];
  source: AnswerSource;
}

export type { CallRecord, QuestionUsage };
