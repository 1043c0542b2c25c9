/**
 * `nl2sql eval [--json] [--baseline FILE] [--id ID] [--role R]`: asks every verified query's
 * question and paraphrases through the real pipeline with the configured model, verified queries
 * switched off for those runs, and compares each result with the verified query's own result
 * (src/engine/verified/evaluation). Prints per question: match, calls, tokens, cost and the SQL
 * (--json: the whole report). The run is saved to the baseline file (./nl2sql-eval.json by
 * default); exit 1 when a question that matched in the run saved there before no longer does.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  asEvalReport,
  regressions,
  VerifiedEvaluation,
  type EvalCase,
  type EvalReport,
} from '../../engine/verified/evaluation/evaluation';
import { writeFileAtomic } from '../../engine/storage/atomic-file';
import { UsageError, type CommandIo, type CommandOptions } from '../io';
import { formatTable } from '../table';
import { commandRoles, withEngine } from '../with-engine';

export const DEFAULT_BASELINE = 'nl2sql-eval.json';

export async function evalCommand(
  args: readonly string[],
  options: CommandOptions,
  io: CommandIo,
): Promise<number> {
  if (args.length)
    throw new UsageError(`eval takes no arguments (got ${args.join(' ')}); --id names a query`);
  const path = resolve(options.baseline ?? DEFAULT_BASELINE);
  const previous = readBaseline(path, io);
  return withEngine(options.env, io, async (engine, config) => {
    const report = await engine.get(VerifiedEvaluation).run({
      roles: commandRoles(options.roles, config),
      ids: options.ids?.length ? options.ids : undefined,
      // Progress on stderr: stdout is the report.
      onCase: (c) => io.err(`nl2sql: ${c.query_id} (${c.kind}): ${c.status}`),
    });
    const found = previous ? regressions(previous, report) : [];
    await writeFileAtomic(path, `${JSON.stringify(report, null, 2)}\n`);
    if (options.json) io.out(JSON.stringify({ ...report, baseline: path, regressions: found }, null, 2));
    else io.out(render(report, found, previous ? path : null));
    io.err(`nl2sql: this run is saved in ${path}`);
    return found.length ? 1 : 0;
  });
}

/** The previous run, or null when there is none yet (or the file is not a saved run: said, not fatal). */
function readBaseline(path: string, io: CommandIo): EvalReport | null {
  if (!existsSync(path)) return null;
  try {
    const report = asEvalReport(JSON.parse(readFileSync(path, 'utf8')));
    if (!report) io.err(`nl2sql: ${path} is not a saved eval run; it will be replaced`);
    return report;
  } catch (err) {
    io.err(`nl2sql: ${path} could not be read (${(err as Error).message}); it will be replaced`);
    return null;
  }
}

function render(report: EvalReport, found: ReturnType<typeof regressions>, baseline: string | null): string {
  const cases = report.queries.flatMap((q) => q.cases);
  const rows = cases.map((c) => [
    c.query_id,
    c.kind === 'question' ? 'question' : 'paraphrase',
    verdict(c),
    c.calls,
    c.tokens,
    c.cost === null ? 'not priced' : c.cost.toFixed(6),
    c.sql ?? c.reason ?? '',
  ]);
  const s = report.summary;
  const parts = [
    formatTable(['verified query', 'asked as', 'match', 'calls', 'tokens', 'cost', 'SQL'], rows),
    `${s.matched} of ${s.cases - s.skipped} questions match (${s.mismatched} mismatched, ${s.errors} failed, ` +
      `${s.skipped} skipped); ${s.calls} model calls, ${s.tokens} tokens` +
      (s.cost === null ? ', not priced' : `, $${s.cost.toFixed(6)}`),
  ];
  for (const c of cases.filter((x) => x.status !== 'match' && x.reason))
    parts.push(`${c.query_id}: "${c.question}": ${c.reason}`);
  if (!baseline) parts.push('no previous run to compare with: this run is the baseline');
  else if (!found.length) parts.push(`no regression against ${baseline}`);
  else
    parts.push(
      [
        `${found.length} regression(s) against ${baseline}:`,
        ...found.map((r) => `  ${r.query_id}: "${r.question}" ${r.status}: ${r.reason ?? ''}`),
      ].join('\n'),
    );
  return parts.join('\n\n');
}

function verdict(c: EvalCase): string {
  return c.status === 'match' ? 'yes' : c.status === 'mismatch' ? 'NO' : c.status;
}
