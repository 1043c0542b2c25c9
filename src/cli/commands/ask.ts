/**
 * `nl2sql ask "question" [--datasource ID] [--json] [--role R] [--arrow FILE]`: one question through
 * the whole pipeline; prints the answer, the SQL of each sub-query and its rows as a table (or, with
 * --json, the API's response body); --arrow writes each whole result as an Arrow IPC stream
 * (arrow-output.ts). Exit 1 when the run ends in error.
 */
import type { QueryResponse } from '../../engine/run/query-response';
import { UsageError, type CommandIo, type CommandOptions } from '../io';
import { formatTable } from '../table';
import { writeArrowFiles } from '../arrow-output';
import { commandRoles, withEngine } from '../with-engine';

/** Rows printed per sub-query; the whole result is saved (its path is printed). */
const PRINTED_ROWS = 20;

export async function askCommand(
  args: readonly string[],
  options: CommandOptions,
  io: CommandIo,
): Promise<number> {
  const question = args.join(' ').trim();
  if (!question) throw new UsageError('ask needs a question, e.g. nl2sql ask "How many orders per country?"');
  return withEngine(options.env, io, async (engine, config) => {
    const response = await engine.ask(question, {
      datasourceId: options.datasource ?? undefined,
      roles: commandRoles(options.roles, config),
    });
    io.out(options.json ? JSON.stringify(response, null, 2) : render(response));
    if (options.arrow) {
      for (const w of await writeArrowFiles(engine, response, options.arrow))
        io.err(`nl2sql: wrote result ${w.resultId} to ${w.path} (Arrow IPC stream)`);
    }
    return response.status === 'error' ? 1 : 0;
  });
}

function render(r: QueryResponse): string {
  const parts: string[] = [];
  if (r.final_answer) parts.push(r.final_answer.summary);
  for (const sq of r.sub_queries) {
    if (sq.sql) parts.push(`SQL (${sq.datasource_id ?? '?'}):\n${sq.sql}`);
    if (sq.rows) {
      const rows = sq.rows.rows.slice(0, PRINTED_ROWS);
      const more = sq.rows.total_rows > rows.length ? `\n(${rows.length} of ${sq.rows.total_rows} rows)` : '';
      parts.push(formatTable(sq.rows.columns, rows) + more);
    }
  }
  for (const e of r.errors) parts.push(`${e.severity} ${e.error_code}: ${e.message}`);
  const u = r.usage.total;
  parts.push(
    `status ${r.status}; ${u.calls} model call(s), ${u.total_tokens} tokens` +
      (u.cost !== null ? `, $${u.cost.toFixed(6)}` : '') +
      `; request ${r.trace_id}`,
  );
  return parts.join('\n\n');
}
