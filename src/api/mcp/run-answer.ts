/**
 * A run's response as an MCP tool answer: status, the summary, per sub-query its SQL and a small
 * row sample, and the ids to page each whole result with `get_result_page`. Whole rows stay in
 * the saved results; an agent pages them when it needs more than the sample.
 */
import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { QueryResponse } from '../../engine/run/query-response';
import { ok, textTable, toolError } from './tool-result';

/** Rows of each sub-query's sample in a tool answer. */
export const SAMPLE_ROWS = 10;

const cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const RUN_ANSWER_SHAPE = {
  status: z.string().describe('success, partial_success or error'),
  request_id: z.string().describe('The run id (trace_id); with a result_id it pages a whole result'),
  answer: z.string().nullable().describe("The answer's summary in words"),
  source: z.object({ type: z.string(), id: z.string().nullable() }),
  sub_queries: z.array(
    z.object({
      id: z.string(),
      datasource_id: z.string().nullable(),
      status: z.string(),
      sql: z.string().nullable().describe('The SQL that ran, values inlined for reading'),
      columns: z.array(z.string()),
      rows: z.array(z.array(cell)).describe(`At most ${SAMPLE_ROWS} rows`),
      total_rows: z.number().int(),
      result_id: z.string().nullable().describe('Page the whole result with get_result_page'),
      truncated: z.boolean(),
    }),
  ),
  errors: z.array(z.object({ error_code: z.string(), message: z.string() })),
  usage: z.object({
    model_calls: z.number().int(),
    total_tokens: z.number().int(),
    cost_usd: z.number().nullable().describe('Null when a model has no known price'),
  }),
};

export function runAnswer(r: QueryResponse): CallToolResult {
  const saved = new Set(r.result_manifest.map((m) => m.node_id));
  const subQueries = r.sub_queries.map((sq) => ({
    id: sq.id,
    datasource_id: sq.datasource_id,
    status: sq.status,
    sql: sq.sql,
    columns: sq.rows?.columns ?? [],
    rows: (sq.rows?.rows ?? []).slice(0, SAMPLE_ROWS).map((row) => row.map(jsonCell)),
    total_rows: sq.rows?.total_rows ?? 0,
    result_id: saved.has(sq.id) ? sq.id : null,
    truncated: sq.truncated,
  }));
  const errors = r.errors.map((e) => ({ error_code: e.error_code, message: e.message }));
  const structured = {
    status: r.status,
    request_id: r.trace_id,
    answer: r.final_answer?.summary ?? null,
    source: { type: r.source.type, id: r.source.id },
    sub_queries: subQueries,
    errors,
    usage: {
      model_calls: r.usage.total.calls,
      total_tokens: r.usage.total.total_tokens,
      cost_usd: r.usage.total.cost,
    },
  };
  if (r.status === 'error') {
    const first = errors[0] ?? { error_code: 'INTERNAL_ERROR', message: 'the run failed' };
    const failed = toolError(first.error_code, first.message);
    return {
      ...failed,
      structuredContent: { ...structured, error_code: first.error_code, message: first.message },
    };
  }
  const text = [
    structured.answer ?? '(no answer)',
    ...subQueries.map((sq) =>
      [
        `SQL (${sq.datasource_id ?? '?'}): ${sq.sql ?? '(none)'}`,
        textTable(sq.columns, sq.rows),
        sq.total_rows > sq.rows.length
          ? `${sq.rows.length} of ${sq.total_rows} rows; get_result_page request_id=${r.trace_id} result_id=${sq.result_id}`
          : '',
      ]
        .filter(Boolean)
        .join('\n'),
    ),
  ].join('\n\n');
  return ok(structured, text);
}

function jsonCell(v: unknown): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return JSON.stringify(v);
}
