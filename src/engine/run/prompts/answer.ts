/**
 * The answer's prompt (step `answer_synthesizer`): the question and, per sub-query, its columns,
 * row count and first rows (or its SQL when not executed). The model answers in plain text (no
 * output schema): the summary, streamed as `answer.delta` when someone follows the run.
 */
import type { SubQueryState } from '../run-state';

/**
 * Rows of each result the summary's prompt shows. A summary of one to three sentences needs the
 * first rows and the count, not a thousand rows of sample: those cost input tokens on every run
 * (and the sanity checks still compare the summary with the whole sample).
 */
const PROMPT_ROWS = 50;

export const ANSWER_SYSTEM = [
  'You answer a question from the query results given. Write one to three plain sentences.',
  'Use only values that appear in the results; do not compute new figures unless asked.',
  'When a result says it was cut at its row cap, say the answer covers only the first rows.',
  'When a result is empty, say that nothing matched.',
  'When only the first rows of a result are shown, do not describe the rows not shown.',
].join('\n');

/**
 * The answer's user message. `shownColumns` (model_sees aggregates) says which columns of a result
 * the model may read; the others are named with their values withheld (all of them when it
 * answers null).
 */
export function describeResults(
  question: string,
  sqs: readonly SubQueryState[],
  execute: boolean,
  shownColumns?: (sq: SubQueryState) => readonly boolean[] | null,
): string {
  const parts = [`Question: ${question}`];
  for (const s of sqs) {
    if (!execute || !s.rows) {
      parts.push(`Sub-question: ${s.intent}\nSQL (not executed): ${s.sql ?? ''}`);
      continue;
    }
    const cut = s.truncated ? ` (cut at its row cap of ${s.datasourceRowCap}: more rows exist)` : '';
    const flags = shownColumns ? shownColumns(s) : undefined;
    const keep = s.rows.columns.map((_, i) =>
      flags === undefined
        ? true
        : flags !== null && flags.length === s.rows!.columns.length && flags[i] === true,
    );
    const withheld = s.rows.columns.filter((_, i) => !keep[i]);
    const note = withheld.length
      ? `\n(values of ${withheld.join(', ')} withheld: the caller's role lets you see only the aggregates the query computes)`
      : '';
    const shown = keep.some(Boolean) ? s.rows.rows.slice(0, PROMPT_ROWS) : [];
    const more =
      shown.length && s.rows.rows.length > shown.length
        ? `\n(${s.rows.rows.length - shown.length} more rows of the sample not shown)`
        : '';
    parts.push(
      `Sub-question: ${s.intent}\nColumns: ${s.rows.columns.join(', ')}\nRows: ${s.rowCount}${cut}${note}\n` +
        shown.map((r) => JSON.stringify(r.filter((_, i) => keep[i]))).join('\n') +
        more,
    );
  }
  return parts.join('\n\n');
}
