/**
 * One rating of a run as it is stored: what the caller said (up or down, a comment, a corrected
 * SQL that passed the checks) and what the run was (its question, the roles that asked, each
 * sub-query's datasource, SQL and plan), copied from the run's trace when the rating came, so the
 * record still stands when retention has removed the trace. Suggestions are built from these.
 */
import type { Query } from '../plan/types';
import type { PlanSource, SubQueryStatus } from '../run/query-response';

export type Rating = 'up' | 'down';

export interface RatedSubQuery {
  readonly id: string;
  /** What this sub-query answers (the question itself when the run had one sub-query). */
  readonly intent: string;
  readonly datasource_id: string | null;
  readonly schema_version: string | null;
  /** The SQL the response showed (values inlined; a verified query's own text). */
  readonly sql: string | null;
  /** The plan that ran; null for a verified query's (its SQL is the curated one) or none. */
  readonly plan: Query | null;
  readonly plan_source: PlanSource | null;
  readonly status: SubQueryStatus | null;
}

export interface FeedbackRecord {
  readonly id: string;
  readonly request_id: string;
  readonly rating: Rating;
  readonly comment: string | null;
  /** The caller's correction, as sent, once it passed the checks. */
  readonly corrected_sql: string | null;
  /** Its plan (imported against the datasource's schema); null without a correction. */
  readonly corrected_plan: Query | null;
  /** The datasource the correction was checked against. */
  readonly corrected_datasource_id: string | null;
  readonly created_at: string;
  /** Who rated. */
  readonly by: { readonly roles: readonly string[]; readonly user_id: string | null };
  /** The rated run, from its trace. */
  readonly run: {
    readonly question: string;
    readonly roles: readonly string[];
    readonly user_id: string | null;
    readonly status: string | null;
    readonly source: { readonly type: string; readonly id: string | null } | null;
    readonly sub_queries: readonly RatedSubQuery[];
  };
}
