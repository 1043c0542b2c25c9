/**
 * `npm run bench -- accuracy --data DIR [--llm FILE] [--format sql|plan] [--limit N] [--json OUT]`
 *
 * The real pipeline on a Spider-layout folder against the model of an llm section (a YAML file
 * with the `llm:` section's keys, e.g. `provider: openai` and `model: gpt-4.1-mini`, the key from
 * the environment), one question at a time with its gold datasource: strict execution match, how
 * many questions were answered or declared unanswerable, model calls, input and output tokens and
 * dollars per question, and the latency a user waits (p50/p95). Without --llm the oracle model
 * answers (the gold SQL, or its plan with --format plan): a check of the harness, not of a model.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { BenchArgs } from '../index';
import { loadSpider } from '../support/spider';
import { BenchClient } from '../e2e/client';
import { askWith, scorableQuestions, score, type Verdict } from '../e2e/core';
import { round3, spread } from '../e2e/measure';
import { Oracle } from '../e2e/oracle';
import { startService } from '../e2e/service';

export interface AccuracyOptions {
  readonly data: string;
  /** An llm section; none: the oracle. */
  readonly llm?: Record<string, unknown>;
  readonly format?: 'sql' | 'plan';
  readonly limit?: number;
}

export interface AccuracyFigures {
  suite: 'accuracy';
  model: string;
  format: 'sql' | 'plan';
  questions: number;
  execution_match: number;
  answered: number;
  unanswerable: number;
  failed: number;
  calls_per_question: number;
  input_tokens_per_question: number;
  output_tokens_per_question: number;
  /** null when a model has no price. */
  cost_usd_per_question: number | null;
  latency_ms: { p50: number; p95: number };
  failures: { idx: number; verdict: Verdict; reason: string | null }[];
}

interface UsageLite {
  total: { calls: number; input_tokens: number; output_tokens: number; cost: number | null };
}

export async function run(args: BenchArgs): Promise<object> {
  if (!args.data) throw new Error('accuracy needs --data DIR (a dataset in Spider layout)');
  const o = args.options;
  const llm =
    typeof o.llm === 'string' ? (parse(readFileSync(o.llm, 'utf8')) as Record<string, unknown>) : undefined;
  const limit = typeof o.limit === 'string' ? Number(o.limit) : undefined;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
    throw new Error(`accuracy: --limit must be a positive integer (got ${String(o.limit)})`);
  if (o.format !== undefined && o.format !== 'sql' && o.format !== 'plan')
    throw new Error(`accuracy: --format must be sql or plan (got ${String(o.format)})`);
  const figures = await runAccuracy({
    data: args.data,
    llm,
    format: o.format,
    limit,
  });
  const { failures, ...summary } = figures;
  console.log(JSON.stringify(summary, null, 2));
  for (const f of failures.slice(0, 20))
    console.log(`  #${f.idx} ${f.verdict}: ${(f.reason ?? '').slice(0, 160)}`);
  return figures;
}

export async function runAccuracy(opts: AccuracyOptions): Promise<AccuracyFigures> {
  const data = loadSpider(opts.data);
  const questions = scorableQuestions(data).questions.slice(0, opts.limit ?? Infinity);
  const used = new Set(questions.map((q) => q.dbId));
  const databases = new Map(
    data.databases.filter((db) => used.has(db)).map((db) => [db, data.sqlitePath(db)]),
  );
  const format = opts.format ?? 'sql';
  const oracle = opts.llm ? null : await Oracle.start();
  const service = await startService({
    databases,
    modelBaseUrl: oracle?.baseUrl ?? 'http://127.0.0.1:9/v1',
    sampleRows: 1000,
    rowCap: 1_000_000,
    plannerFormat: format,
    llm: opts.llm,
    maxRetries: 2,
  });
  const client = new BenchClient(service.url, 1);
  try {
    await oracle?.prepare(questions, (db) => service.snapshot(db));
    const ask = askWith(client);
    let matched = 0;
    let unanswerable = 0;
    let failed = 0;
    let calls = 0;
    let input = 0;
    let output = 0;
    let cost: number | null = 0;
    const latency: number[] = [];
    const failures: AccuracyFigures['failures'] = [];
    for (const q of questions) {
      const { res, wallMs } = await ask(q);
      latency.push(wallMs);
      const usage = (res as unknown as { usage: UsageLite }).usage.total;
      calls += usage.calls;
      input += usage.input_tokens;
      output += usage.output_tokens;
      cost = cost === null || usage.cost === null ? null : cost + usage.cost;
      const verdict = await score(client, q, res, null);
      if (verdict.verdict === 'matched') matched++;
      else failures.push({ idx: q.idx, ...verdict });
      if (res.errors.some((e) => e.error_code === 'QUESTION_UNANSWERABLE')) unanswerable++;
      else if (res.status !== 'success') failed++;
    }
    const n = Math.max(1, questions.length);
    return {
      suite: 'accuracy',
      model: typeof opts.llm?.model === 'string' ? opts.llm.model : 'oracle',
      format,
      questions: questions.length,
      execution_match: round3(matched / n),
      answered: questions.length - unanswerable - failed,
      unanswerable,
      failed,
      calls_per_question: round3(calls / n),
      input_tokens_per_question: round3(input / n),
      output_tokens_per_question: round3(output / n),
      cost_usd_per_question: cost === null ? null : Math.round((cost / n) * 1e6) / 1e6,
      latency_ms: spread(latency),
      failures,
    };
  } finally {
    client.close();
    await service.close();
    await oracle?.close();
  }
}
