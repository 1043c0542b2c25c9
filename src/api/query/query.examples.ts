/**
 * Examples for /openapi.json that work against the embedded default's demo datasource: Swagger UI's
 * "Try it out" sends these, so they name a real datasource and a question its data answers.
 */
import { DEMO_DATASOURCE_ID, DEMO_SAMPLE_QUESTIONS } from '../../demo/demo-datasource';
import { compilePlan } from '../../engine/plan';
import * as P from '../../engine/plan/build';

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
const on = (left: [string, string], right: [string, string]) =>
  P.cmp('=', P.col(left[1], left[0]), P.col(right[1], right[0]));

/** The plan a planner model gives for DEMO_QUESTION on the demo (test/e2e/example-configs runs it there). */
export const EXAMPLE_PLAN = P.query(
  P.select({
    columns: [P.item(P.col('region_name', 'r')), P.item(P.agg('sum', P.col('total_amount', 'o')), 'revenue')],
    from: P.join(
      'inner',
      P.join(
        'inner',
        P.join(
          'inner',
          P.table('orders', 'o'),
          P.table('customers', 'cu'),
          on(['cu', 'customer_id'], ['o', 'customer_id']),
        ),
        P.table('countries', 'co'),
        on(['co', 'country_code'], ['cu', 'country_code']),
      ),
      P.table('regions', 'r'),
      on(['r', 'region_id'], ['co', 'region_id']),
    ),
    where: P.and(
      P.cmp('<>', P.col('status', 'o'), P.lit('cancelled')),
      P.cmp('=', P.fn('year', P.col('order_date', 'o')), P.lit(2024)),
    ),
    groupBy: [P.col('region_name', 'r')],
  }),
  { orderBy: [P.order(P.col('revenue'), 'desc')] },
);
const ROW_CAP = 10000;
export const EXAMPLE_SQL = compilePlan(EXAMPLE_PLAN, 'duckdb', { rowCap: ROW_CAP }).displaySql;
const COLUMNS = ['region_name', 'revenue'];
/** What EXAMPLE_SQL returns on the demo database as the service builds it. */
export const EXAMPLE_ROWS: [string, number][] = [
  ['Europe', 37524098.64],
  ['North America', 32423448.22],
  ['Asia Pacific', 9800836.05],
  ['Latin America', 9542123.46],
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
      sql: EXAMPLE_SQL,
      datasource_id: DEMO_DATASOURCE_ID,
      schema_version: 'a41c9e07d2b3',
      plan: JSON.parse(JSON.stringify(EXAMPLE_PLAN)) as Record<string, unknown>,
      validation: [
        { name: 'schema', passed: true, message: 'every table and column exists' },
        { name: 'policy', passed: true, message: 'the role may read every column used' },
      ],
      rows: { columns: COLUMNS, rows: EXAMPLE_ROWS, total_rows: EXAMPLE_ROWS.length },
      status: 'success',
      retry_count: 0,
      plan_source: 'llm',
      row_cap: ROW_CAP,
      truncated: false,
      policies_applied: [],
    },
  ],
  final_answer: {
    summary: 'In 2024 Europe had the most revenue ($37.52M), followed by North America ($32.42M).',
    format_type: 'table',
    content: [
      '| region_name | revenue |',
      '|---|---|',
      ...EXAMPLE_ROWS.map(([region, revenue]) => `| ${region} | ${revenue} |`),
    ].join('\n'),
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
      row_count: EXAMPLE_ROWS.length,
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
  result_manifest: [{ node_id: 'sq1', columns: COLUMNS, row_count: EXAMPLE_ROWS.length, truncated: false }],
  source: { type: 'generated', id: null, datasource_id: null, params: null },
};

export const RESULT_PAGE_EXAMPLE = {
  request_id: TRACE_ID,
  result_id: 'sq1',
  columns: COLUMNS,
  rows: EXAMPLE_ROWS.slice(0, 2),
  offset: 0,
  limit: 2,
  total_rows: EXAMPLE_ROWS.length,
  next_offset: 2,
};
