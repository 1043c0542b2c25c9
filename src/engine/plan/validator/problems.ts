/**
 * What the validator reports: the closed lists of problem and warning codes, the problem shape
 * (code, JSON Pointer path, a message a model can repair the plan from), the collector the checks
 * write to, and the "did you mean" hint for misspelt names.
 */
import { closest, distance } from 'fastest-levenshtein';
import { PLAN_PROBLEM_CODES } from '../../errors/error-code';

export const PROBLEM_CODES = [
  ...PLAN_PROBLEM_CODES,
  'DATASOURCE_DENIED',
  'TABLE_DENIED',
  'COLUMN_DENIED',
] as const;
export const WARNING_CODES = [
  'JOIN_WITHOUT_FOREIGN_KEY',
  'COMPARISON_TYPE_MISMATCH',
  'ARBITRARY_GROUP_VALUE',
  'AGGREGATE_OVER_TEXT',
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number] | (typeof WARNING_CODES)[number];

/** Problem codes that mean "refused by policy" rather than "the plan is wrong". */
export const REFUSAL_CODES: readonly ProblemCode[] = ['DATASOURCE_DENIED', 'TABLE_DENIED', 'COLUMN_DENIED'];

export interface PlanProblem {
  readonly code: ProblemCode;
  /** JSON Pointer into the plan, e.g. `/body/columns/0/expr`. */
  readonly path: string;
  readonly message: string;
  /** A close existing name, when the problem is a misspelt one. */
  readonly suggestion?: string;
}

/** Problems (the plan is refused) and warnings (it runs, but may not mean what was asked), in order found. */
export class Findings {
  readonly problems: PlanProblem[] = [];
  readonly warnings: PlanProblem[] = [];

  problem(code: ProblemCode, path: string, message: string, suggestion?: string): void {
    this.problems.push(suggestion ? { code, path, message, suggestion } : { code, path, message });
  }

  warn(code: ProblemCode, path: string, message: string): void {
    this.warnings.push({ code, path, message });
  }
}

/** The closest existing name when it is close enough to be a misspelling. */
export function suggest(name: string, candidates: readonly string[]): string | undefined {
  if (!candidates.length) return undefined;
  const lowerMap = new Map(candidates.map((c) => [c.toLowerCase(), c]));
  const best = closest(name.toLowerCase(), [...lowerMap.keys()]);
  if (best === undefined) return undefined;
  const d = distance(name.toLowerCase(), best);
  return d <= Math.max(2, Math.floor(name.length / 3)) ? lowerMap.get(best) : undefined;
}

export function hint(name: string, candidates: readonly string[]): string {
  const s = suggest(name, candidates);
  return s ? ` Did you mean "${s}"?` : '';
}
