/** Values of a verified query's parameters, checked against the types the query declares. */
import type { VerifiedQueryConfig } from '../../config/schema';

export type ParamType = NonNullable<VerifiedQueryConfig['params']>[string]['type'];

/** What is wrong with `v` as a value of a parameter of type `type`, or null when it fits. */
export function valueProblem(type: ParamType, v: unknown): string | null {
  const ok =
    type === 'string'
      ? typeof v === 'string'
      : type === 'integer'
        ? Number.isInteger(v)
        : type === 'number'
          ? typeof v === 'number' && Number.isFinite(v)
          : type === 'boolean'
            ? typeof v === 'boolean'
            : typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v));
  if (ok) return null;
  return `must be ${type === 'date' ? 'a date (YYYY-MM-DD)' : `of type ${type}`}, got ${JSON.stringify(v)}`;
}

/**
 * What is wrong with values given for a verified query's parameters (none when they fit): every
 * declared parameter present with its declared type, nothing undeclared.
 */
export function paramProblems(vq: VerifiedQueryConfig, params: Record<string, unknown>): string[] {
  const declared = vq.params ?? {};
  const problems: string[] = [];
  for (const name of Object.keys(params)) {
    if (!(name in declared))
      problems.push(`unknown parameter '${name}' (declared: ${Object.keys(declared).join(', ') || 'none'})`);
  }
  for (const [name, p] of Object.entries(declared)) {
    const v = params[name];
    if (v === undefined || v === null) {
      problems.push(`parameter '${name}' (${p.type}) is missing`);
      continue;
    }
    const wrong = valueProblem(p.type, v);
    if (wrong) problems.push(`parameter '${name}' ${wrong}`);
  }
  return problems;
}
