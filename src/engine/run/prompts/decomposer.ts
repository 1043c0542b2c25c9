/**
 * The decomposer's prompt (step `decomposer`): the candidate datasources, best first, and the
 * question. The model answers with the fewest sub-questions one SQL query each can answer, each on
 * one of the candidates (the answer schema's enum holds their ids).
 */

export interface Decomposition {
  sub_queries: { intent: string; datasource_id: string }[];
}

export const DECOMPOSE_TOOL = 'decompose_question';

export const decompositionSchema = (candidates: string[]) => ({
  type: 'object',
  additionalProperties: false,
  required: ['sub_queries'],
  properties: {
    sub_queries: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['intent', 'datasource_id'],
        properties: {
          intent: { type: 'string', description: 'A self-contained question that one SQL query answers' },
          datasource_id: { type: 'string', enum: candidates },
        },
      },
    },
  },
});

/**
 * The candidates as the prompt lists them, best first: one line each, then, indented under it,
 * the datasource's knowledge (its business rules and the glossary terms the question names,
 * knowledge.ts) when it has some.
 */
export function describeCandidates(
  candidates: readonly {
    readonly id: string;
    readonly description?: string | null;
    readonly knowledge?: string;
  }[],
): string {
  return candidates
    .map((c) => {
      const line = `- ${c.id}: ${c.description ?? '(no description)'}`;
      if (!c.knowledge) return line;
      return `${line}\n${c.knowledge
        .split('\n')
        .map((l) => `  ${l}`)
        .join('\n')}`;
    })
    .join('\n');
}

/** The decomposer's prompt: `described` lists the candidate datasources, best first. */
export function decomposerPrompt(
  question: string,
  described: string,
  max: number,
): { system: string; user: string } {
  return {
    system:
      'You split a question into the fewest independent sub-questions that each one SQL query can answer. ' +
      `A question that one query answers stays ONE sub-question, worded as asked. At most ${max} sub-questions.`,
    user: `Datasources (best first):\n${described}\n\nQuestion: ${question}`,
  };
}
