/** Smoke test of `npm run bench -- prompts` on the first questions of spider-dev-a. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { measurePrompts } from '../../bench/prompts';

const DATA =
  process.env.NL2SQL_SPIDER_DIR ?? resolve(__dirname, '..', '..', '..', 'shared', 'eval', 'spider-dev-a');

// The dataset lives outside the repository; without it there is nothing to run this on.
const describeWithData = existsSync(DATA) ? describe : describe.skip;

describeWithData('bench prompts (smoke)', () => {
  it('counts the tokens and calls of each question and the recall of the planner prompt', async () => {
    const sql = await measurePrompts(DATA, 'sql', 12);
    const plan = await measurePrompts(DATA, 'plan', 12);
    expect(sql).toMatchObject({ suite: 'prompts', format: 'sql', questions: 12 });
    // The SQL draft's answer schema is tiny next to the plan language's: far fewer tokens.
    expect(sql.planner_input_tokens.p50).toBeGreaterThan(100);
    expect(plan.planner_input_tokens.p50).toBeGreaterThan(2 * sql.planner_input_tokens.p50);
    expect(sql.input_tokens_per_question.p50).toBeGreaterThan(sql.planner_input_tokens.p50);
    expect(sql.calls_per_question.p50).toBe(2);
    expect(sql.schema_recall).toBeGreaterThan(0.9);
    expect(sql.schema_recall).toBeLessThanOrEqual(1);
    expect(sql.value_recall).toBeGreaterThanOrEqual(0);
    expect(sql.value_recall).toBeLessThanOrEqual(1);
    // The value index puts the stored spelling of what a question names in the prompt: at least
    // as often as the first sorted samples did, measured in the same run.
    expect(sql.value_recall).toBeGreaterThanOrEqual(sql.value_recall_baseline);
    expect(sql.value_precision).toBeGreaterThanOrEqual(0);
    expect(sql.value_precision).toBeLessThanOrEqual(1);
    expect(sql.values_indexed).toBeGreaterThan(0);
    expect(sql.routing_top1).toBeGreaterThan(0.5);
    expect(sql.example_count).toBeGreaterThanOrEqual(0);
  });
});
