/**
 * Evaluation of the model against the verified queries (`nl2sql eval`, `npm run bench --
 * verified`): every enabled verified query the caller may run is asked, by its question and by
 * each paraphrase, through the real pipeline with the configured model and with verified queries
 * switched off for the run (RunRequest.useVerified: no fast path, no verified example in the
 * prompt); each answer's whole result is compared with the verified query's own result for the
 * same values (execution match: the same multiset of rows, column order aside where the names
 * match). Reported per question: match, SQL, model calls, tokens, cost. A saved report is the
 * baseline of the next run: `regressions` lists the questions that matched then and do not now.
 */
import { Inject, Injectable } from '@nestjs/common';
import { ResultsService } from '../../admin/results.service';
import { DatasourceRegistry } from '../../datasources/registry';
import { ENGINE_CONFIG, type EngineConfig } from '../../engine-config';
import { LlmService } from '../../llm/llm-service';
import { verifiedVisibleTo } from '../../policy/verified-visibility';
import type { QueryResponse } from '../../run/query-response';
import { RunService } from '../../run/run-service';
import { VerifiedQueries, type CheckedVerifiedQuery, type ParamValue } from '../verified-queries';
import { askedQuestion, evalValues } from './eval-values';
import { executionMatch, type NamedResult } from './result-compare';

/** Rows of a result compared at most (the default row cap). */
const MAX_ROWS = 10_000;
const PAGE = 1000;

export type CaseStatus = 'match' | 'mismatch' | 'error' | 'skipped';

export interface EvalCase {
  readonly query_id: string;
  readonly kind: 'question' | 'paraphrase';
  /** The verified question or paraphrase, as configured. */
  readonly template: string;
  /** What was asked. */
  readonly question: string;
  readonly status: CaseStatus;
  readonly match: boolean;
  /** Why it did not match, failed or was skipped. */
  readonly reason: string | null;
  /** The SQL the model's run showed. */
  readonly sql: string | null;
  readonly request_id: string | null;
  readonly calls: number;
  readonly tokens: number;
  /** USD; null when a model has no price. */
  readonly cost: number | null;
}

export interface EvalQuery {
  readonly id: string;
  readonly datasource_id: string;
  readonly params: Record<string, ParamValue> | null;
  readonly matched: number;
  readonly cases: EvalCase[];
}

export interface EvalReport {
  readonly version: 1;
  readonly started_at: string;
  readonly finished_at: string;
  readonly agents: Record<string, { readonly provider: string; readonly model: string }>;
  readonly queries: EvalQuery[];
  readonly summary: {
    readonly queries: number;
    readonly cases: number;
    readonly matched: number;
    readonly mismatched: number;
    readonly errors: number;
    readonly skipped: number;
    readonly calls: number;
    readonly tokens: number;
    readonly cost: number | null;
  };
}

export interface Regression {
  readonly query_id: string;
  readonly template: string;
  readonly question: string;
  readonly status: CaseStatus;
  readonly reason: string | null;
}

export interface EvalOptions {
  readonly roles: readonly string[];
  /** Only these verified queries (all by default). */
  readonly ids?: readonly string[];
  readonly signal?: AbortSignal;
  /** Told of each question as it is done. */
  readonly onCase?: (c: EvalCase) => void;
}

@Injectable()
export class VerifiedEvaluation {
  constructor(
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
    private readonly verified: VerifiedQueries,
    private readonly runs: RunService,
    private readonly results: ResultsService,
    private readonly datasources: DatasourceRegistry,
    private readonly llm: LlmService,
  ) {}

  async run(options: EvalOptions): Promise<EvalReport> {
    const started = new Date().toISOString();
    const visible = verifiedVisibleTo(
      options.roles,
      this.config.policies.roles,
      (id) => this.datasources.get(id)?.snapshot,
    );
    const queries: EvalQuery[] = [];
    for (const entry of this.verified.list()) {
      const d = entry.definition;
      if (options.ids && !options.ids.includes(d.id)) continue;
      const templates = [d.question, ...(d.paraphrases ?? [])];
      const skip = (reason: string): EvalQuery => ({
        id: d.id,
        datasource_id: d.datasource_id,
        params: null,
        matched: 0,
        cases: templates.map((t, i) => skipped(d.id, i, t, reason)),
      });
      if (!entry.checked)
        queries.push(skip(`the verified query is ${entry.status}${entry.reason ? `: ${entry.reason}` : ''}`));
      else if (!visible(entry.checked)) queries.push(skip('the roles evaluated with may not run it'));
      else queries.push(await this.evaluate(entry.checked, templates, options));
      for (const c of queries.at(-1)!.cases) if (c.status === 'skipped') options.onCase?.(c);
    }
    return {
      version: 1,
      started_at: started,
      finished_at: new Date().toISOString(),
      agents: Object.fromEntries(
        Object.entries(this.llm.list()).map(([name, a]) => [name, { provider: a.provider, model: a.model }]),
      ),
      queries,
      summary: summarise(queries),
    };
  }

  private async evaluate(
    vq: CheckedVerifiedQuery,
    templates: readonly string[],
    options: EvalOptions,
  ): Promise<EvalQuery> {
    const caller = { roles: options.roles, userId: null };
    const values = evalValues(vq, this.datasources.get(vq.datasource_id)?.snapshot ?? null);
    if (!values.ok)
      return {
        id: vq.id,
        datasource_id: vq.datasource_id,
        params: null,
        matched: 0,
        cases: templates.map((t, i) => skipped(vq.id, i, t, values.reason)),
      };
    const reference = await this.runs.runVerified(vq.id, values.values, caller, { signal: options.signal });
    const expected = await this.wholeResult(reference);
    const cases: EvalCase[] = [];
    for (const [i, template] of templates.entries()) {
      const question = askedQuestion(template, values.values);
      const base = { query_id: vq.id, kind: i ? 'paraphrase' : 'question', template, question } as const;
      if (!expected) {
        cases.push({
          ...base,
          ...NO_RUN,
          status: 'error',
          reason: `the verified query itself failed: ${failureOf(reference)}`,
        });
      } else {
        const answer = await this.runs.run(
          { question, datasourceId: null, execute: true, caller, useVerified: false },
          options.signal,
        );
        cases.push({ ...base, ...(await this.judge(answer, expected)) });
      }
      options.onCase?.(cases.at(-1)!);
    }
    return {
      id: vq.id,
      datasource_id: vq.datasource_id,
      params: values.values,
      matched: cases.filter((c) => c.match).length,
      cases,
    };
  }

  /** The model's answer against the verified result: any of its results may be the match. */
  private async judge(
    answer: QueryResponse,
    expected: NamedResult,
  ): Promise<Omit<EvalCase, 'query_id' | 'kind' | 'template' | 'question'>> {
    const total = answer.usage.total;
    const measured = {
      sql: answer.sub_queries.find((s) => s.sql)?.sql ?? null,
      request_id: answer.trace_id,
      calls: total.calls,
      tokens: total.total_tokens,
      cost: total.cost,
    };
    if (answer.status !== 'success')
      return { ...measured, status: 'error', match: false, reason: failureOf(answer) };
    let reason = 'no result';
    for (const summary of answer.result_manifest) {
      const actual = await this.wholeResult(answer, summary.node_id);
      if (!actual) continue;
      const outcome = executionMatch(expected, actual);
      if (outcome.equal) return { ...measured, status: 'match', match: true, reason: null };
      reason = outcome.reason;
    }
    return { ...measured, status: 'mismatch', match: false, reason };
  }

  /** A run's result (its first, or `resultId`), every row up to MAX_ROWS; null when it has none. */
  private async wholeResult(response: QueryResponse, resultId?: string): Promise<NamedResult | null> {
    if (response.status !== 'success') return null;
    const id = resultId ?? response.result_manifest[0]?.node_id;
    if (!id) return null;
    const rows: unknown[][] = [];
    let columns: string[] = [];
    let offset: number | null = 0;
    while (offset !== null && rows.length < MAX_ROWS) {
      const page = await this.results.page(response.trace_id, id, { offset, limit: PAGE });
      columns = page.columns;
      rows.push(...page.rows);
      offset = page.next_offset;
    }
    return { columns, rows };
  }
}

/**
 * The questions that matched in `previous` and do not in `current` (a question no longer asked,
 * or now skipped, is not a regression: nothing was measured).
 */
export function regressions(previous: EvalReport, current: EvalReport): Regression[] {
  const before = new Map<string, EvalCase>();
  for (const q of previous.queries) for (const c of q.cases) before.set(caseKey(c), c);
  const out: Regression[] = [];
  for (const q of current.queries)
    for (const c of q.cases) {
      if (before.get(caseKey(c))?.match !== true) continue;
      if (c.status === 'mismatch' || c.status === 'error')
        out.push({
          query_id: c.query_id,
          template: c.template,
          question: c.question,
          status: c.status,
          reason: c.reason,
        });
    }
  return out;
}

/** A saved report as read back from a file, or null when it is not one. */
export function asEvalReport(json: unknown): EvalReport | null {
  const r = json as Partial<EvalReport> | null;
  return r && r.version === 1 && Array.isArray(r.queries) ? (r as EvalReport) : null;
}

function caseKey(c: Pick<EvalCase, 'query_id' | 'template'>): string {
  return `${c.query_id}\u0000${c.template}`;
}

const NO_RUN = { match: false, sql: null, request_id: null, calls: 0, tokens: 0, cost: 0 } as const;

function skipped(queryId: string, i: number, template: string, reason: string): EvalCase {
  return {
    query_id: queryId,
    kind: i ? 'paraphrase' : 'question',
    template,
    question: template,
    status: 'skipped',
    reason,
    ...NO_RUN,
  };
}

function failureOf(response: QueryResponse): string {
  const e = response.errors.find((x) => x.severity === 'ERROR') ?? response.errors[0];
  return e ? `${e.error_code}: ${e.message}` : `status ${response.status}`;
}

function summarise(queries: readonly EvalQuery[]): EvalReport['summary'] {
  const cases = queries.flatMap((q) => q.cases);
  const count = (s: CaseStatus) => cases.filter((c) => c.status === s).length;
  const costs = cases.map((c) => c.cost);
  return {
    queries: queries.length,
    cases: cases.length,
    matched: count('match'),
    mismatched: count('mismatch'),
    errors: count('error'),
    skipped: count('skipped'),
    calls: cases.reduce((n, c) => n + c.calls, 0),
    tokens: cases.reduce((n, c) => n + c.tokens, 0),
    cost: costs.some((c) => c === null) ? null : round6(costs.reduce<number>((n, c) => n + (c ?? 0), 0)),
  };
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
