/** The wire shapes the page reads (spec section 2 and 6), as far as it reads them. */

export interface ListedDatasource {
  id: string;
  type: string;
  description: string | null;
  status: 'ready' | 'failed' | 'unchecked';
  reason: string | null;
}

export interface IndexStatus {
  status: 'ok' | 'empty' | 'stale' | 'missing';
  total: number;
  built_at: string | null;
  embedding_model: string;
  datasources: { datasource_id: string; entries: number; built_at: string }[];
  problems: { code: string; datasource_id: string | null; message: string; fix: string }[];
}

export interface PageContext {
  role_source: {
    header: string | null;
    static_role: string | null;
    trust_body_role: boolean;
    configured: boolean;
  };
  caller: { roles: string[] | null; may_query: boolean; may_admin: boolean };
  admin_roles: string[];
  sample_questions: Record<string, string[]>;
}

export interface AgentEntry {
  provider?: string;
  model: string;
  temperature?: number | null;
  inherited: boolean;
}

export interface RowSample {
  columns: string[];
  rows: unknown[][];
  total_rows: number;
}

export interface ValidationCheck {
  name: string;
  passed: boolean;
  message: string;
}

export interface SubQueryResponse {
  id: string;
  intent: string;
  sql: string | null;
  datasource_id: string | null;
  rows: RowSample | null;
  status: 'success' | 'error' | 'dropped';
  retry_count: number;
  plan_source: string;
  row_cap: number | null;
  truncated: boolean;
  validation: ValidationCheck[];
}

export interface PipelineError {
  node: string;
  message: string;
  error_code: string;
  severity: string;
  sub_query_id?: string | null;
}

export interface RunWarning {
  code: string;
  node: string;
  message: string;
  sub_query_id: string | null;
}

export interface ResultSummary {
  node_id: string;
  columns: string[];
  row_count: number;
  truncated: boolean;
}

export interface UsageRecord {
  calls: number;
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  cost: number | null;
}

export interface AnswerSource {
  type: 'verified' | 'generated';
  id: string | null;
  datasource_id: string | null;
  params: Record<string, unknown> | null;
}

export interface QueryResponse {
  sub_queries: SubQueryResponse[];
  final_answer: { summary: string; content: string; format_type: string } | null;
  errors: PipelineError[];
  trace_id: string;
  warnings: RunWarning[];
  status: 'success' | 'error' | 'plan_only';
  usage: { total: UsageRecord; plan_cache_hits: number };
  truncated: boolean;
  result_manifest: ResultSummary[];
  source: AnswerSource;
}

export interface ResultPage {
  columns: string[];
  rows: unknown[][];
  offset: number;
  limit: number;
  total_rows: number;
  next_offset: number | null;
}

/** The stream envelope (spec 2) with the data of the events the page shows (spec 6). */
export type RunEvent =
  | Envelope<'run.started', { question: string; datasource_id: string | null; execute: boolean }>
  | Envelope<'node.started', { node: string; sub_query_id: string | null }>
  | Envelope<'node.finished', { node: string; sub_query_id: string | null; seconds: number; ok: boolean }>
  | Envelope<'result.manifest', { results: ResultSummary[] }>
  | Envelope<'answer.delta', { field: 'summary' | 'content'; text: string }>
  | Envelope<'sanity.flagged', { check: string; message: string; sub_query_id: string | null }>
  | Envelope<'run.limit_reached', { limit: string; value: number; used: number; node: string }>
  | Envelope<'run.finished', { status: string; duration_s: number; result: QueryResponse }>
  | Envelope<'run.failed', { message: string; error_code: string }>;

interface Envelope<N extends string, D> {
  name: N;
  at: string;
  trace_id: string;
  tenant_id: string | null;
  data: D;
}
