/**
 * `npm run bench -- verified [--config FILE] [--llm FILE] [--id ID] [--json OUT]`
 *
 * `nl2sql eval` as a benchmark: every verified query of a config (the embedded default's demo
 * without --config) asked by its question and paraphrases through the real pipeline with the
 * model of an llm section (--llm: a YAML file with the `llm:` section's keys; else the config's),
 * verified queries switched off for those runs, each result compared with the verified query's
 * own (execution match). Prints the share of questions matched, model calls, tokens and dollars
 * per question, and each question that did not match with the reason.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/loader';
import { engineHandle } from '../../src/create-engine';
import { VerifiedEvaluation, type EvalReport } from '../../src/engine/verified/evaluation/evaluation';
import { engineContext } from '../../src/nest-context';
import type { BenchArgs } from '../index';

export interface VerifiedBenchOptions {
  /** A config file; none: the embedded default (NL2SQL_CONFIG, ./nl2sql.yaml, as the service finds it). */
  readonly config?: string;
  /** An llm section replacing the config's. */
  readonly llm?: Record<string, unknown>;
  readonly ids?: readonly string[];
  readonly roles?: readonly string[];
}

export interface VerifiedFigures {
  suite: 'verified';
  model: string;
  questions: number;
  skipped: number;
  execution_match: number;
  matched: number;
  mismatched: number;
  failed: number;
  calls_per_question: number;
  tokens_per_question: number;
  /** null when a model has no price. */
  cost_usd_per_question: number | null;
  misses: { query_id: string; question: string; status: string; reason: string | null }[];
  report: EvalReport;
}

export async function run(args: BenchArgs): Promise<object> {
  const o = args.options;
  const figures = await runVerifiedBench({
    config: typeof o.config === 'string' ? o.config : undefined,
    llm:
      typeof o.llm === 'string' ? (parse(readFileSync(o.llm, 'utf8')) as Record<string, unknown>) : undefined,
    ids: typeof o.id === 'string' ? o.id.split(',') : undefined,
  });
  const { report: _report, misses, ...summary } = figures;
  console.log(JSON.stringify(summary, null, 2));
  for (const m of misses.slice(0, 30))
    console.log(`  ${m.query_id} ${m.status}: "${m.question}": ${(m.reason ?? '').slice(0, 160)}`);
  return figures;
}

export async function runVerifiedBench(opts: VerifiedBenchOptions): Promise<VerifiedFigures> {
  const env = opts.config ? { ...process.env, NL2SQL_CONFIG: resolve(opts.config) } : process.env;
  const { config } = loadConfig(env);
  const withLlm = opts.llm ? { ...config, llm: opts.llm as typeof config.llm } : config;
  const engine = engineHandle(await engineContext(withLlm, { env }));
  try {
    const report = await engine.get(VerifiedEvaluation).run({
      roles: opts.roles ?? (config.api.role ? [config.api.role] : []),
      ids: opts.ids,
    });
    const s = report.summary;
    const asked = s.cases - s.skipped;
    const per = (x: number) => (asked ? Math.round((x / asked) * 1000) / 1000 : 0);
    const agent = report.agents.default ?? Object.values(report.agents)[0];
    return {
      suite: 'verified',
      model: agent ? `${agent.provider}/${agent.model}` : 'none',
      questions: asked,
      skipped: s.skipped,
      execution_match: asked ? Math.round((s.matched / asked) * 1000) / 1000 : 0,
      matched: s.matched,
      mismatched: s.mismatched,
      failed: s.errors,
      calls_per_question: per(s.calls),
      tokens_per_question: per(s.tokens),
      cost_usd_per_question: s.cost === null ? null : asked ? Math.round((s.cost / asked) * 1e6) / 1e6 : 0,
      misses: report.queries
        .flatMap((q) => q.cases)
        .filter((c) => c.status !== 'match')
        .map((c) => ({ query_id: c.query_id, question: c.question, status: c.status, reason: c.reason })),
      report,
    };
  } finally {
    await engine.close();
  }
}
