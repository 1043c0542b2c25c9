/**
 * Typed errors of the plan layer. Codes are stable (callers and the HTTP layer switch on them).
 */
import { EngineError } from '../errors';
import type { Dialect } from '../datasources/schema';

export const PLAN_ERROR_CODES = {
  /** The plan failed validation; `details.problems` lists every problem. */
  PLAN_INVALID: 'PLAN_INVALID',
  /** The target dialect cannot express a construct of the plan; the SQL would silently differ. */
  PLAN_UNSUPPORTED: 'PLAN_UNSUPPORTED',
  /** A plan is malformed in a way the compiler cannot even walk (run the validator first). */
  PLAN_MALFORMED: 'PLAN_MALFORMED',
  /** The plan, or the SQL it is imported from, nests deeper than the limits of limits.ts. */
  PLAN_TOO_COMPLEX: 'PLAN_TOO_COMPLEX',
  /** A named parameter had no value at compile time. */
  PLAN_PARAM_MISSING: 'PLAN_PARAM_MISSING',
  /** The SQL given to the importer does not parse in its dialect. */
  SQL_PARSE_ERROR: 'SQL_PARSE_ERROR',
  /** The SQL parses but uses a construct the plan language cannot represent. */
  SQL_IMPORT_UNSUPPORTED: 'SQL_IMPORT_UNSUPPORTED',
} as const;
export type PlanErrorCode = keyof typeof PLAN_ERROR_CODES;

export class PlanError extends EngineError {
  constructor(code: PlanErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(code, message, details);
    this.name = 'PlanError';
  }
}

export function unsupported(dialect: Dialect, construct: string, hint = ''): PlanError {
  return new PlanError(
    'PLAN_UNSUPPORTED',
    `${dialect} cannot express ${construct}${hint ? `: ${hint}` : ''}`,
    {
      dialect,
      construct,
    },
  );
}

export function importUnsupported(construct: string, sql?: string): PlanError {
  return new PlanError('SQL_IMPORT_UNSUPPORTED', `The plan language cannot represent ${construct}`, {
    construct,
    ...(sql ? { sql: sql.slice(0, 200) } : {}),
  });
}
