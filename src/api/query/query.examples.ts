/**
 * Examples for /openapi.json that work against the embedded default's demo datasource: Swagger UI's
 * "Try it out" sends these, so they name a real datasource and a question its data answers.
 */
import { DEMO_DATASOURCE_ID, DEMO_SAMPLE_QUESTIONS } from '../../demo/demo-datasource';

export { DEMO_DATASOURCE_ID };

export const DEMO_QUESTION = DEMO_SAMPLE_QUESTIONS[0] ?? 'What was the total revenue per region in 2024?';

export const QUERY_REQUEST_EXAMPLES = {
  revenue_per_region: {
    summary: 'Revenue per region (demo datasource)',
    value: { natural_language: DEMO_QUESTION, datasource_id: DEMO_DATASOURCE_ID },
  },
  plan_only: {
    summary: 'Plan and compile without running (status plan_only)',
    value: { natural_language: DEMO_SAMPLE_QUESTIONS[1], execute: false },
  },
};

const TRACE_ID = '3f6c2a1e9b7d4c0f8e5a2b1c7d9e0f12';
const SQL =
  'SELECT r.region_name, SUM(o.total_amount) AS revenue\n' +
  'FROM orders AS o\n' +
  'JOIN customers AS cu ON cu.customer_id = o.customer_id\n' +
  'JOIN countries AS co ON co.country_code = cu.country_code\n' +
  'JOIN regions AS r ON r.region_id = co.region_id\n' +
  "WHERE o.status <> 'cancelled' AND YEAR(o.order_date) = 2024\n" +
  'GROUP BY r.region_name\n' +
  'ORDER BY revenue DESC\n' +
  'LIMIT 10000';
const COLUMNS = ['region_name', 'revenue'];
const ROWS = [
  ['North America', 21450333.12],
  ['Europe', 17322019.4],
  ['Asia Pacific', 9120877.05],
  ['Latin America', 5011893.77],
];
const usage = (calls: number, input: number, output: number, latency: number) => ({
  calls,
  input_tokens: input,
  cached_input_tokens: 0,
  cache_write_input_tokens: 0,
  output_tokens: output,
  reasoning_tokens: 0,
  total_tokens: input + output,
  latency_s: latency,
  cost: null,
});
const call = (node: string, input: number, output: number, latency: number) => {
  const { calls: _one, ...figures } = usage(1, input, output, latency);
  return { node, model: 'qwen2.5-coder:3b', ...figures, usage_reported: true, error: null };
};

/** A successful run of DEMO_QUESTION on the demo database, as POST /api/v1/query answers it. */
export const QUERY_RESPONSE_EXAMPLE = {
  sub_queries: [
    {
      id: 'sq1',
      intent: 'Total revenue of non-cancelled orders per customer region in 2024',
      sql: SQL,
      datasource_id: DEMO_DATASOURCE_ID,
      schema_version: 'a41c9e07d2b3',
      plan: { select: ['r.region_name', 'SUM(o.total_amount) AS revenue'], from: 'orders' },
      validation: [
        { name: 'schema', passed: true, message: 'every table and column exists' },
        { name: 'policy', passed: true, message: 'the role may read every column used' },
      ],
      rows: { columns: COLUMNS, rows: ROWS, total_rows: 4 },
      status: 'success',
      retry_count: 0,
      plan_source: 'llm',
      row_cap: 10000,
      truncated: false,
    },
  ],
  final_answer: {
    summary: 'In 2024 North America had the most revenue ($21.45M), followed by Europe ($17.32M).',
    format_type: 'table',
    content:
      '| region_name | revenue |\n|---|---|\n| North America | 21450333.12 |\n| Europe | 17322019.4 |\n' +
      '| Asia Pacific | 9120877.05 |\n| Latin America | 5011893.77 |',
    warnings: [],
    truncated: false,
  },
  errors: [],
  trace_id: TRACE_ID,
  reasoning: [],
  warnings: [],
  artifact_refs: {
    sq1: {
      uri: `./data/results/default/${TRACE_ID}/sq1.parquet`,
      format: 'parquet',
      row_count: 4,
      columns: COLUMNS,
    },
  },
  status: 'success',
  timings: { datasource_resolver: 0.002, ast_planner: 2.415, executor: 0.031, answer_synthesizer: 0.94 },
  usage: {
    total: usage(2, 2820, 222, 3.34),
    nodes: { ast_planner: usage(1, 2210, 164, 2.41), answer_synthesizer: usage(1, 610, 58, 0.93) },
    calls: [call('ast_planner', 2210, 164, 2.41), call('answer_synthesizer', 610, 58, 0.93)],
    plan_cache_hits: 0,
  },
  trace_path: `./data/traces/default/${TRACE_ID}.json`,
  truncated: false,
  result_manifest: [{ node_id: 'sq1', columns: COLUMNS, row_count: 4, truncated: false }],
  source: { type: 'generated', id: null, datasource_id: null, params: null },
};

export const RESULT_PAGE_EXAMPLE = {
  request_id: TRACE_ID,
  result_id: 'sq1',
  columns: COLUMNS,
  rows: ROWS.slice(0, 2),
  offset: 0,
  limit: 2,
  total_rows: 4,
  next_offset: 2,
};
