/**
 * The router's prompt (step `datasource_resolver`, asked only when the schema index cannot rank
 * the datasources): each candidate with its description and sample questions, then the question.
 * The model answers with one datasource id, or null when none can answer.
 */

export interface RouteAnswer {
  datasource_id: string | null;
  reason: string;
}

export const ROUTE_TOOL = 'route_question';

export const ROUTE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['datasource_id', 'reason'],
  properties: {
    datasource_id: {
      type: ['string', 'null'],
      description: 'The id of the datasource that can answer, or null if none can',
    },
    reason: { type: 'string', description: 'One sentence: why this datasource, or why none' },
  },
};

export const ROUTER_SYSTEM =
  'You route a question to the one datasource that can answer it. Answer with null when none can.';

export interface RouteCandidate {
  readonly id: string;
  readonly description?: string | null;
  readonly sampleQuestions?: readonly string[];
}

/** The candidates (at most five sample questions each), then the question. */
export function routerUserMessage(question: string, candidates: readonly RouteCandidate[]): string {
  const catalogue = candidates
    .map((c) => {
      const samples = (c.sampleQuestions ?? [])
        .slice(0, 5)
        .map((q) => `    - ${q}`)
        .join('\n');
      return `- id: ${c.id}\n  description: ${c.description ?? '(none)'}${samples ? `\n  sample questions:\n${samples}` : ''}`;
    })
    .join('\n');
  return `Datasources:\n${catalogue}\n\nQuestion: ${question}`;
}
