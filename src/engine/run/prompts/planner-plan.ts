/**
 * The planner's prompt and output schema. The model answers with a typed plan (the plan
 * language's JSON Schema, the same one published in src/engine/plan/plan.schema.json), or with
 * null and a reason when the schema cannot answer the question. It never writes SQL.
 */
import planSchema from '../../plan/plan.schema.json';

export const QUERY_PLAN_TOOL = 'query_plan';

export interface PlannerAnswer {
  plan: Record<string, unknown> | null;
  unanswerable_reason: string | null;
}

const { $defs, $schema: _s, title: _t, description: _d, ...queryRoot } = planSchema as Record<string, any>;

/** `{plan: Query | null, unanswerable_reason: string | null}` with the plan language's definitions. */
export const PLANNER_OUTPUT_SCHEMA: Record<string, unknown> = {
  type: 'object',
  additionalProperties: false,
  required: ['plan', 'unanswerable_reason'],
  properties: {
    plan: {
      anyOf: [queryRoot, { type: 'null' }],
      description: 'The query plan; null only when the schema cannot answer',
    },
    unanswerable_reason: {
      type: ['string', 'null'],
      description: 'Why no query can answer; null when a plan is given',
    },
  },
  $defs,
};

export const PLANNER_SYSTEM = [
  'You translate a question into a query plan: a typed JSON tree that the service validates and compiles to SQL.',
  'The plan language, in short:',
  '- A query is {kind: "query", with, body, order_by, limit, offset}; a body is a select {kind: "select", distinct, columns, from, where, group_by, having} or a set operation {kind: "set_op", op, all, left, right}; with holds CTEs.',
  '- columns: [{expr, alias}]; from: a table {kind: "table", name, alias}, a join {kind: "join", join_type, left, right, on} or a derived table {kind: "derived", query, alias}; order_by: [{expr, direction, nulls}].',
  '- Expressions carry a kind: column {name, table}, literal {value, type}, compare {op, left, right}, and/or {args}, not, in_list, in_query, exists, between, like, is_null, arith, case, cast, func, aggregate {fn, arg, distinct} (arg null only for count(*)), window, subquery, param.',
  'Worked examples (a shop with customers(id, name, country) and orders(id, customer_id -> customers.id, amount)):',
  '- "How many customers are there?" -> body {kind: select, columns [{expr {kind: aggregate, fn: count, arg: null}, alias: "customers"}], from {kind: table, name: customers}}.',
  '- "Total amount per country, largest first" -> from a join of orders o and customers c on compare = (c.id, o.customer_id), columns [c.country, aggregate sum(o.amount) as total], group_by [c.country], order_by [{expr: column total, direction: desc}].',
  '- "Customers from France without orders" -> where {kind: and, args [compare = (c.country, literal "France"), exists negated over a query of orders where o.customer_id = c.id]}.',
  'Rules:',
  '- Use only the tables and columns listed in the schema, spelled exactly as listed.',
  '- Put every constant in a `literal` node; never write SQL text anywhere.',
  '- Join tables through their foreign keys (REFERENCES in the schema) unless the question needs another condition.',
  '- Give output columns readable aliases when they are expressions.',
  '- Add ORDER BY and LIMIT only when the question asks for a ranking, a top-N or an order.',
  "- Write text values as the schema spells them. `matches:` shows stored values the question's words may name and how each matched: when the question names one, use it as stored.",
  '- If the schema cannot answer the question, return plan null and say why in unanswerable_reason.',
].join('\n');

/** The plan format's system prompt: the plan language and rules, the datasource's knowledge, the schema. */
export function plannerPlanSystem(schemaText: string, knowledge = ''): string {
  return `${PLANNER_SYSTEM}${knowledge ? `\n\n${knowledge}` : ''}\n\nSchema:\n${schemaText}`;
}

/** A known question and its answer, shown in the planner format in use. */
export interface PromptExample {
  readonly question: string;
  readonly sql: string;
  readonly plan?: unknown;
}

/** What a planner's user message holds, in either format; the schema is in the system prompt. */
export interface PlannerPromptInput {
  readonly question: string;
  readonly examples: readonly PromptExample[];
  /** The previous attempt's plan and what was wrong with it (the refiner's feedback). */
  readonly previous: { plan: unknown; problems: readonly string[]; draft?: string | null } | null;
}

export function plannerUserMessage(input: PlannerPromptInput): string {
  const parts: string[] = [];
  if (input.examples.length) {
    parts.push(
      'Similar questions answered on this datasource (question, then its plan; a `param` node stands for a value of the question):\n' +
        input.examples.map((e) => `- ${e.question}\n  ${e.plan ? JSON.stringify(e.plan) : e.sql}`).join('\n'),
    );
  }
  parts.push(`Question: ${input.question}`);
  if (input.previous) {
    parts.push(
      `Your previous plan was rejected:\n${JSON.stringify(input.previous.plan)}\nProblems:\n` +
        input.previous.problems.map((p) => `- ${p}`).join('\n') +
        '\nReturn a corrected plan.',
    );
  }
  return parts.join('\n\n');
}
