/**
 * Step `answer_synthesizer`: the final answer. The model writes the `summary` (streamed when
 * someone follows the run: each piece is an `answer.delta`; asked whole otherwise); `content` is
 * the data itself rendered by the service (a number, a table of the sample rows, or a note that
 * nothing matched), so no figure in it can be invented. Then the sanity checks compare the summary
 * with the rows. What the model reads of the rows is what the caller's roles let it see
 * (`model_sees`, policy/model-sees.ts): the rows, only the aggregate columns, or nothing at all
 * (then the summary is built in code, as for a verified query answered with no model).
 */
import { Inject, Injectable } from '@nestjs/common';
import { ENGINE_CONFIG, type EngineConfig } from '../../engine-config';
import { aggregateColumns, modelSeesFor } from '../../policy/model-sees';
import { AGENTS } from '../agents';
import type { RunContext } from '../run-context';
import type { RunState, SubQueryState } from '../run-state';
import { checkAnswer } from './sanity';
import type { RunNode } from '../node';
import type { FinalAnswer } from '../query-response';
import { ANSWER_SYSTEM, describeResults } from '../prompts/answer';

/**
 * Rows of a result the answer's `content` table shows. The response carries the inline sample in
 * `sub_queries[].rows` and the whole result is paged from the result route, so a longer table would
 * only repeat rows in the response and in every trace.
 */
const CONTENT_ROWS = 100;

@Injectable()
export class AnswerSynthesizer implements RunNode {
  constructor(@Inject(ENGINE_CONFIG) private readonly config: EngineConfig) {}

  /** Runs when at least one sub-query succeeded: there is something to answer from. */
  applies(state: RunState): boolean {
    return state.subQueries.some((s) => s.status === 'success');
  }

  async run(state: RunState, ctx: RunContext): Promise<void> {
    const execute = state.request.execute;
    const sqs = state.subQueries.filter((s) => s.status === 'success');
    const content = renderContent(sqs, execute);
    const formatType = formatOf(sqs, execute);
    const sees = modelSeesFor(this.config.policies.roles, state.request.caller.roles).level;
    // A run answered by verified queries with no model call stays without one, and a caller whose
    // roles let the model see nothing of the data gets none: a template says it.
    const byCode = sqs.every((s) => s.verified?.direct) || sees === 'none';
    const shown = sees === 'aggregates' ? aggregatesOnly : undefined;
    const summary = byCode
      ? templateSummary(sqs, execute)
      : await ctx.models.text(
          AGENTS.answer,
          'answer_synthesizer',
          ANSWER_SYSTEM,
          [{ role: 'user', content: describeResults(state.request.question, sqs, execute, shown) }],
          ctx.emitter.observed
            ? (piece) => ctx.emitter.emit('answer.delta', { field: 'summary', text: piece })
            : undefined,
        );
    if (byCode) ctx.emitter.emit('answer.delta', { field: 'summary', text: summary });
    if (content) ctx.emitter.emit('answer.delta', { field: 'content', text: content });
    const truncated = sqs.some((s) => s.truncated);
    const warnings: string[] = [];
    for (const f of checkAnswer(summary, state.request.question, sqs)) {
      ctx.emitter.emit('sanity.flagged', f);
      ctx.warn({
        code: f.check,
        node: 'answer_synthesizer',
        message: f.message,
        sub_query_id: f.sub_query_id,
        detail: f.detail,
      });
      warnings.push(f.message);
    }
    if (truncated && !warnings.some((w) => w.includes('cut at'))) {
      warnings.push('the result was cut at its row cap; the answer covers only the rows returned');
    }
    state.finalAnswer = { summary, format_type: formatType, content, warnings, truncated };
  }
}

/** The summary of results answered without a model (verified queries, model_sees none), built from their rows. */
export function templateSummary(sqs: readonly SubQueryState[], execute: boolean): string {
  return sqs
    .map((sq) => {
      const head = sq.verified ? `From the verified query '${sq.verified.id}'` : `For "${sq.intent}"`;
      const r = sq.rows;
      if (!execute || !r) return `${head}: the SQL is ready to run.`;
      if (!r.rows.length) return `${head}: nothing matched.`;
      if (r.rows.length === 1 && r.columns.length === 1)
        return `${head}: ${r.columns[0]} is ${cell(r.rows[0]?.[0])}.`;
      const total = sq.rowCount ?? r.rows.length;
      const shown = r.rows
        .slice(0, 3)
        .map((row) => r.columns.map((c, i) => `${c} ${cell(row[i])}`).join(', '))
        .join('; ');
      const more = total > 3 ? `; and ${total - 3} more` : '';
      const cut = sq.truncated ? ' (cut at the row cap)' : '';
      return `${head}: ${total} row${total === 1 ? '' : 's'}${cut}. ${shown}${more}.`;
    })
    .join('\n');
}

/** model_sees aggregates: the result's columns the plan computes with an aggregate (none when unknown). */
function aggregatesOnly(sq: SubQueryState): readonly boolean[] | null {
  return sq.plan && sq.snapshot ? aggregateColumns(sq.plan, sq.snapshot) : null;
}

function formatOf(sqs: readonly SubQueryState[], execute: boolean): FinalAnswer['format_type'] {
  if (!execute) return 'text';
  if (!sqs.length) return 'error';
  if (sqs.every((s) => s.rowCount === 0)) return 'empty';
  const only = sqs.length === 1 ? sqs[0] : undefined;
  if (only?.rows && only.rows.rows.length === 1 && only.rows.columns.length === 1) {
    return typeof only.rows.rows[0]?.[0] === 'number' ? 'number' : 'text';
  }
  if (only?.rows && only.rows.columns.length === 1) return 'list';
  return 'table';
}

/** The data as the answer's content: markdown, from the inline sample only. */
export function renderContent(sqs: readonly SubQueryState[], execute: boolean): string {
  if (!execute) return sqs.map((s) => `-- ${s.intent}\n${s.sql ?? ''}`).join('\n\n');
  return sqs
    .map((s) => {
      const r = s.rows;
      if (!r) return '';
      const head = sqs.length > 1 ? `**${s.intent}**\n\n` : '';
      if (!r.rows.length) return `${head}No rows matched.`;
      if (r.rows.length === 1 && r.columns.length === 1) return `${head}${cell(r.rows[0]?.[0])}`;
      const lines = [
        `| ${r.columns.map(escapeCell).join(' | ')} |`,
        `| ${r.columns.map(() => '---').join(' | ')} |`,
      ];
      const shown = r.rows.slice(0, CONTENT_ROWS);
      for (const row of shown) lines.push(`| ${row.map((c) => escapeCell(cell(c))).join(' | ')} |`);
      const more =
        r.total_rows > shown.length
          ? `\n\n${shown.length} of ${r.total_rows}${s.truncated ? '+' : ''} rows shown.`
          : '';
      return `${head}${lines.join('\n')}${more}`;
    })
    .filter(Boolean)
    .join('\n\n');
}

function cell(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return v.toString();
  return JSON.stringify(v);
}

function escapeCell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
