/**
 * The oracle model: answers every pipeline call as a perfect model would, so that the e2e bench
 * measures the service and not a model. It runs on the scripted fake model server (OpenAI wire,
 * real HTTP) and recognises each call by the tool it asks for:
 *
 *   decompose_question  one sub-query: the question itself, on its gold database
 *   route_question      the gold database
 *   query_plan          {plan: importSql(gold SQL), unanswerable_reason: null}, precomputed
 *   (plain text)        a short fixed answer
 *
 * A question is recognised by the `Question:` line of the prompt. A gold query the plan language
 * cannot import is answered with plan null (the run then fails, and the bench says why).
 */
import type { SchemaSnapshot } from '../../src/engine/datasources/schema';
import { importSql } from '../../src/engine/plan';
import type { Plan } from '../../src/engine/plan/types';
import { FakeModelServer, type FakeReply, type RecordedRequest } from '../../test/support/fake-model';
import { questionOf, stepOf } from '../../test/support/pipeline-model';

export const ORACLE_ANSWER = 'Here is the result of your question.';

export interface OracleQuestion {
  readonly question: string;
  readonly dbId: string;
  /** Gold SQL in SQLite's dialect. */
  readonly sql: string;
}

type Planned = { readonly plan: Plan; readonly error: null } | { readonly plan: null; readonly error: string };

export class Oracle {
  /** Question text -> its gold question (the first one when a text repeats). */
  private readonly byQuestion = new Map<string, OracleQuestion>();
  private readonly plans = new Map<OracleQuestion, Planned>();
  /** Calls answered per step, and calls it could not place (a question it does not know). */
  readonly counts: Record<string, number> = {};
  unknown = 0;

  private constructor(readonly server: FakeModelServer) {
    server.onRequest((req) => this.answer(req));
  }

  static async start(): Promise<Oracle> {
    return new Oracle(await FakeModelServer.start());
  }

  get baseUrl(): string {
    return this.server.openaiBaseUrl;
  }

  /**
   * Imports each question's gold SQL against the schema the service introspected, once, before
   * any run: the planning call then costs the oracle a map lookup.
   */
  prepare(questions: readonly OracleQuestion[], snapshotOf: (dbId: string) => SchemaSnapshot | null): void {
    for (const q of questions) {
      const key = q.question.trim();
      if (!this.byQuestion.has(key)) this.byQuestion.set(key, q);
      const snapshot = snapshotOf(q.dbId);
      try {
        if (!snapshot) throw new Error(`no schema for database '${q.dbId}'`);
        this.plans.set(q, { plan: importSql(q.sql, 'sqlite', snapshot), error: null });
      } catch (err) {
        this.plans.set(q, { plan: null, error: err instanceof Error ? err.message : String(err) });
      }
    }
  }

  /** Why the gold SQL of a question could not become a plan, or null when it did. */
  importError(q: OracleQuestion): string | null {
    return this.plans.get(q)?.error ?? null;
  }

  /** The fake server keeps every request: the bench forgets them between passes. */
  forgetRequests(): void {
    this.server.requests.length = 0;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  private answer(req: RecordedRequest): FakeReply {
    const step = stepOf(req);
    this.counts[step] = (this.counts[step] ?? 0) + 1;
    if (step === 'answer') return { text: ORACLE_ANSWER };
    const q = this.byQuestion.get(questionOf(req));
    if (!q) {
      this.unknown++;
      return { status: 500, body: { error: { message: `oracle: unknown question in a ${step} call` } } };
    }
    switch (step) {
      case 'decompose_question':
        return { json: { sub_queries: [{ intent: q.question.trim(), datasource_id: q.dbId }] } };
      case 'route_question':
        return { json: { datasource_id: q.dbId, reason: 'the gold database' } };
      case 'query_plan': {
        const planned = this.plans.get(q);
        return planned?.plan
          ? { json: { plan: planned.plan, unanswerable_reason: null } }
          : { json: { plan: null, unanswerable_reason: `oracle: ${planned?.error ?? 'no plan'}` } };
      }
      case 'match_verified_query':
        // The bench configures no verified queries, so the service never asks this.
        return { status: 500, body: { error: { message: `oracle: no answer for step ${step}` } } };
    }
  }
}
