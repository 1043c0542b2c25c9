/**
 * What the oracle model answers, by the tool each pipeline call asks for:
 *
 *   decompose_question  one sub-query: the question itself, on its gold database
 *   route_question      the gold database
 *   query_plan          {plan: the gold SQL imported as a plan, unanswerable_reason: null}
 *   sql_draft           {sql: the gold SQL, unanswerable_reason: null} (planner format `sql`)
 *   (plain text)        a short fixed answer
 *
 * A question is recognised by the `Question:` line of the prompt. A gold query the plan language
 * could not import is answered with plan null (the run then fails, and the bench says why).
 */
import type { FakeReply, RecordedRequest } from '../../test/support/fake-model';
import { questionOf, stepOf } from '../../test/support/pipeline-model';

export const ORACLE_ANSWER = 'Here is the result of your question.';

/** One question as the oracle knows it: its gold database and its plan (or why there is none). */
export interface OracleEntry {
  readonly question: string;
  readonly dbId: string;
  readonly plan: unknown;
  readonly importError: string | null;
  /** The gold SQL (SQLite dialect), the SQL-draft planner's answer. */
  readonly sql: string;
}

export class OracleAnswers {
  /** Question text -> its entry (the first one when a text repeats). */
  private readonly byQuestion = new Map<string, OracleEntry>();
  /** Calls answered per step. */
  readonly counts: Record<string, number> = {};
  /** Calls that named a question the oracle does not know. */
  unknown = 0;

  load(entries: readonly OracleEntry[]): void {
    for (const e of entries) if (!this.byQuestion.has(e.question)) this.byQuestion.set(e.question, e);
  }

  answer(req: RecordedRequest): FakeReply {
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
        return { json: { sub_queries: [{ intent: q.question, datasource_id: q.dbId }] } };
      case 'route_question':
        return { json: { datasource_id: q.dbId, reason: 'the gold database' } };
      case 'query_plan':
        return q.plan
          ? { json: { plan: q.plan, unanswerable_reason: null } }
          : { json: { plan: null, unanswerable_reason: `oracle: ${q.importError ?? 'no plan'}` } };
      case 'sql_draft':
        return { json: { sql: q.sql, unanswerable_reason: null } };
      case 'match_verified_query':
        // The bench configures no verified queries, so the service never asks this.
        return { status: 500, body: { error: { message: `oracle: no answer for step ${step}` } } };
    }
  }
}
