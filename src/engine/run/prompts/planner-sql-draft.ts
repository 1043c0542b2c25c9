/**
 * The SQL-draft planner (`planner_format: sql`, the default): the model answers with one SELECT in
 * the datasource's dialect, or null and a reason. The draft never runs: the service imports it into
 * a plan, validates the plan against the schema and the caller's role, and compiles the SQL that
 * runs from the plan. A draft that does not parse or import comes back with the problem.
 */
import type { PlannerPromptInput } from './planner-plan';

export interface SqlDraftAnswer {
  sql: string | null;
  unanswerable_reason: string | null;
}

export const SQL_DRAFT_TOOL = 'sql_draft';

/** Small on purpose: every property required and typed, so every provider's strict mode takes it. */
export const SQL_DRAFT_SCHEMA: Record<string, unknown> = {
  type: 'object',
  additionalProperties: false,
  required: ['sql', 'unanswerable_reason'],
  properties: {
    sql: {
      type: ['string', 'null'],
      description: 'One SELECT statement that answers the question; null only when the schema cannot answer',
    },
    unanswerable_reason: {
      type: ['string', 'null'],
      description: 'Why no query can answer; null when sql is given',
    },
  },
};

/**
 * `knowledge` (the datasource's instructions and glossary, knowledge.ts) follows the general
 * rules as rules of their own, before the schema: a model reads them as what to do, not as facts
 * about tables.
 */
export function plannerSqlSystem(dialect: string, schemaText: string, knowledge = ''): string {
  return [
    `You write one read-only SQL SELECT statement in the ${dialect} dialect that answers the question.`,
    'Rules:',
    '- Use only the tables and columns of the schema below, spelled exactly as there.',
    '- One statement: SELECT, or WITH ... SELECT; no comments, no trailing semicolon, no writes.',
    '- Join tables through their foreign keys (REFERENCES in the schema) unless the question needs another condition.',
    '- Give computed output columns short aliases.',
    '- Add ORDER BY and LIMIT only when the question asks for a ranking, a top-N or an order.',
    "- Write text values exactly as the schema spells them. `matches:` shows stored values the question's words may name and how each matched: when the question names one, use it as stored.",
    '- If the schema cannot answer, answer sql null and say why in unanswerable_reason.',
    ...(knowledge ? ['', knowledge] : []),
    '',
    'Schema:',
    schemaText,
  ].join('\n');
}

export function plannerSqlUserMessage(input: PlannerPromptInput): string {
  const parts: string[] = [];
  if (input.examples.length) {
    parts.push(
      'Similar questions answered on this datasource (question, then its SQL; `:name` stands for a value of the question):\n' +
        input.examples.map((e) => `- ${e.question}\n  ${e.sql}`).join('\n'),
    );
  }
  parts.push(`Question: ${input.question}`);
  if (input.previous) {
    parts.push(
      `Your previous SQL was rejected:\n${input.previous.draft ?? '(none)'}\nProblems:\n` +
        input.previous.problems.map((p) => `- ${p}`).join('\n') +
        '\nReturn corrected SQL.',
    );
  }
  return parts.join('\n\n');
}
