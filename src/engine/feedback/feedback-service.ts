/**
 * Ratings of runs (POST /api/v1/query/{request_id}/feedback): the rated run is found through its
 * trace (so an unknown run, another tenant's or a purged one is NOT_FOUND), a correction is
 * checked like a planner's SQL draft for the caller's roles, and the rating is stored with the
 * run's question, SQL, plans, roles and datasource. Each rating is audited as the operator event
 * `feedback.recorded` (metrics count them by rating).
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DatasourceRegistry } from '../datasources/registry';
import { ENGINE_CONFIG, type EngineConfig } from '../engine-config';
import { NotFoundError } from '../errors';
import { OperatorEvents } from '../events/operator-events';
import type { Query } from '../plan/types';
import type { Caller } from '../run/run-state';
import { TraceStore } from '../storage/trace-store';
import { CorrectedSqlInvalidError, checkCorrectedSql } from './corrected-sql';
import type { FeedbackRecord, RatedSubQuery, Rating } from './feedback-record';
import { FeedbackStore } from './feedback-store';

export interface FeedbackInput {
  readonly rating: Rating;
  readonly comment?: string | null;
  readonly corrected_sql?: string | null;
}

@Injectable()
export class FeedbackService {
  constructor(
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
    private readonly traces: TraceStore,
    private readonly store: FeedbackStore,
    private readonly datasources: DatasourceRegistry,
    private readonly events: OperatorEvents,
  ) {}

  /**
   * Records a rating of the run `requestId`. NOT_FOUND when this tenant has no such run;
   * CORRECTED_SQL_INVALID when the correction is not one SELECT the caller may run on the run's
   * datasource.
   */
  async record(requestId: string, input: FeedbackInput, caller: Caller): Promise<FeedbackRecord> {
    const trace = await this.traces.readTrace(this.config.tenant_id, requestId);
    if (!trace) throw new NotFoundError(`no run '${requestId}' (unknown, of another tenant, or purged)`);
    const run = ratedRun(trace);
    const correctedSql = input.corrected_sql?.trim() || null;
    let corrected: { plan: Query; datasourceId: string } | null = null;
    if (correctedSql) corrected = await this.checkCorrection(correctedSql, run.sub_queries, caller);
    const record: FeedbackRecord = {
      id: randomUUID().replace(/-/g, ''),
      request_id: requestId,
      rating: input.rating,
      comment: input.comment?.trim() || null,
      corrected_sql: correctedSql,
      corrected_plan: corrected?.plan ?? null,
      corrected_datasource_id: corrected?.datasourceId ?? null,
      created_at: new Date().toISOString(),
      by: { roles: [...caller.roles], user_id: caller.userId },
      run,
    };
    await this.store.add(this.config.tenant_id, record);
    this.events.emit(
      'feedback.recorded',
      {
        feedback_id: record.id,
        request_id: requestId,
        rating: record.rating,
        datasource_id: corrected?.datasourceId ?? firstDatasource(run.sub_queries),
        has_comment: record.comment !== null,
        has_correction: correctedSql !== null,
        roles: caller.roles,
        user_id: caller.userId,
      },
      requestId,
    );
    return record;
  }

  /** Every rating, newest first; only those of one run with `requestId`. */
  async list(filter: { readonly requestId?: string } = {}): Promise<FeedbackRecord[]> {
    const all = await this.store.list(this.config.tenant_id);
    return all
      .filter((r) => !filter.requestId || r.request_id === filter.requestId)
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
  }

  /** The correction's plan on the run's datasource (its first sub-query's), for the caller's roles. */
  private async checkCorrection(
    sql: string,
    subQueries: readonly RatedSubQuery[],
    caller: Caller,
  ): Promise<{ plan: Query; datasourceId: string }> {
    const datasourceId = firstDatasource(subQueries);
    if (!datasourceId)
      throw new CorrectedSqlInvalidError(
        'the run reached no datasource, so there is no schema to check it against',
      );
    if (!this.datasources.has(datasourceId))
      throw new CorrectedSqlInvalidError(`the run's datasource '${datasourceId}' no longer exists`);
    const { snapshot } = await this.datasources.use(datasourceId);
    if (!snapshot) throw new CorrectedSqlInvalidError(`the datasource '${datasourceId}' has no schema yet`);
    const plan = checkCorrectedSql(
      sql,
      { datasourceId, roles: caller.roles, snapshot },
      this.config.policies.roles,
    );
    return { plan, datasourceId };
  }
}

function firstDatasource(subQueries: readonly RatedSubQuery[]): string | null {
  return subQueries.find((s) => s.datasource_id)?.datasource_id ?? null;
}

/** The rated run as the trace (toTrace in run/response-mapper.ts) holds it. */
function ratedRun(trace: Record<string, unknown>): FeedbackRecord['run'] {
  const response = record(trace.response);
  const source = record(response.source);
  const subQueries = Array.isArray(response.sub_queries) ? response.sub_queries : [];
  return {
    question: str(trace.question) ?? '',
    roles: strings(trace.roles),
    user_id: str(trace.user_id),
    status: str(response.status),
    source: str(source.type) ? { type: str(source.type)!, id: str(source.id) } : null,
    sub_queries: subQueries.map((raw) => {
      const sq = record(raw);
      return {
        id: str(sq.id) ?? '',
        intent: str(sq.intent) ?? '',
        datasource_id: str(sq.datasource_id),
        schema_version: str(sq.schema_version),
        sql: str(sq.sql),
        plan: sq.plan && typeof sq.plan === 'object' ? (sq.plan as Query) : null,
        plan_source: (str(sq.plan_source) as RatedSubQuery['plan_source']) ?? null,
        status: (str(sq.status) as RatedSubQuery['status']) ?? null,
      };
    }),
  };
}

function record(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}
