/**
 * Smoke test of `npm run bench -- accuracy`: the real pipeline with the oracle model answering the
 * gold SQL (sql format) and the imported gold plan (plan format) on the first questions of
 * spider-dev-a, scored by strict execution match, with calls, tokens and latency per question.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { runAccuracy } from '../../bench/accuracy';
import { rootLogger } from '../../src/engine/logging/logger';

const DATA =
  process.env.NL2SQL_SPIDER_DIR ?? resolve(__dirname, '..', '..', '..', 'shared', 'eval', 'spider-dev-a');

// The dataset lives outside the repository; without it there is nothing to run this on.
const describeWithData = existsSync(DATA) ? describe : describe.skip;

describeWithData('bench accuracy (smoke)', () => {
  const level = rootLogger.level;
  beforeAll(() => {
    rootLogger.level = 'warn';
  });
  afterAll(() => {
    rootLogger.level = level;
  });

  it.each(['sql', 'plan'] as const)(
    'scores the %s format with the oracle: every answer matches',
    async (format) => {
      const f = await runAccuracy({ data: DATA, format, limit: 5 });
      expect(f).toMatchObject({ suite: 'accuracy', model: 'oracle', format, questions: 5 });
      expect(f.failures).toEqual([]);
      expect(f.execution_match).toBe(1);
      expect(f.answered).toBe(5);
      expect(f.unanswerable + f.failed).toBe(0);
      // One datasource, one intent: the planner and the answer.
      expect(f.calls_per_question).toBe(2);
      expect(f.input_tokens_per_question).toBeGreaterThan(0);
      expect(f.latency_ms.p95).toBeGreaterThanOrEqual(f.latency_ms.p50);
    },
  );
});
