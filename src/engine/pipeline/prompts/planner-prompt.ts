/**
 * The planner's prompt and output schema. The model answers with a typed plan (the plan
 * language's JSON Schema, the same one published in src/engine/plan/plan.schema.json), or with
 * null and a reason when the schema cannot answer the question. It never writes SQL.
 */
import planSchema from '../../plan/plan.schema.json';

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
  'Rules:',
  '- Use only the tables and columns listed in the schema, spelled exactly as listed.',
  '- Put every constant in a `literal` node; never write SQL text anywhere.',
  '- Join tables through their foreign keys (`->` in the schema) unless the question needs another condition.',
  '- Give output columns readable aliases when they are expressions.',
  '- Add ORDER BY and LIMIT only when the question asks for a ranking, a top-N or an order.',
  '- Match text values as the sample values spell them.',
  '- If the schema cannot answer the question, return plan null and say why in unanswerable_reason.',
].join('\n');

export interface PlannerPromptInput {
  readonly schemaText: string;
  readonly question: string;
  readonly examples: readonly { question: string; sql: string }[];
  /** The previous attempt's plan and what was wrong with it (the refiner's feedback). */
  readonly previous: { plan: unknown; problems: readonly string[] } | null;
}

export function plannerUserMessage(input: PlannerPromptInput): string {
  const parts = [`Schema:\n${input.schemaText}`];
  if (input.examples.length) {
    parts.push(
      'Verified examples for this datasource (question and the SQL that answers it):\n' +
        input.examples.map((e) => `- ${e.question}\n  ${e.sql}`).join('\n'),
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
