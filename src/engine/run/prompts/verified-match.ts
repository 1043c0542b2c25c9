/**
 * The verified-query match (step `verified_resolver`, when the no-model path cannot decide): the
 * verified question, its paraphrases and typed parameters, and the question. The model says whether
 * the question asks exactly that, and gives each parameter's value as stored (null when the question
 * does not give it). The values are bound as parameters, never spliced into the SQL.
 */
import type { VerifiedQueryConfig } from '../../../config/schema';
import type { ParamValue } from '../../verified/verified-queries';

export interface VerifiedMatchAnswer {
  matches: boolean;
  params: Record<string, ParamValue>;
}

export const VERIFIED_MATCH_TOOL = 'match_verified_query';

export const VERIFIED_MATCH_SYSTEM =
  'You decide whether a question asks exactly what a verified question asks, and extract its parameter values ' +
  'as they would be stored in the database. Use null for a parameter the question does not give.';

export function verifiedMatchUserMessage(vq: VerifiedQueryConfig, question: string): string {
  const declared = Object.entries(vq.params ?? {});
  return (
    `Verified question: ${vq.question}\n` +
    (vq.paraphrases?.length ? `Also asked as: ${vq.paraphrases.join(' | ')}\n` : '') +
    (declared.length
      ? `Parameters:\n${declared.map(([n, p]) => `- ${n} (${p.type}): ${p.description ?? ''}`).join('\n')}\n`
      : '') +
    `\nQuestion: ${question}`
  );
}

/**
 * One answer schema object per verified query: structured output caches the validator it compiles
 * by schema object, so the same query must give the same object, not a new one to compile.
 */
const schemas = new WeakMap<VerifiedQueryConfig, Record<string, unknown>>();

/** JSON Schema of the model's answer: does the question ask this, and with which values. */
export function verifiedMatchSchema(vq: VerifiedQueryConfig): Record<string, unknown> {
  let schema = schemas.get(vq);
  if (!schema) {
    schema = buildSchema(vq);
    schemas.set(vq, schema);
  }
  return schema;
}

function buildSchema(vq: VerifiedQueryConfig): Record<string, unknown> {
  const params = Object.entries(vq.params ?? {});
  const typeOf = (t: string) =>
    t === 'integer' ? 'integer' : t === 'number' ? 'number' : t === 'boolean' ? 'boolean' : 'string';
  return {
    type: 'object',
    additionalProperties: false,
    required: ['matches', 'params'],
    properties: {
      matches: {
        type: 'boolean',
        description: 'True only when the question asks exactly what the verified question asks',
      },
      params: {
        type: 'object',
        additionalProperties: false,
        required: params.map(([n]) => n),
        properties: Object.fromEntries(
          params.map(([n, p]) => [n, { type: [typeOf(p.type), 'null'], description: p.description ?? n }]),
        ),
      },
    },
  };
}
