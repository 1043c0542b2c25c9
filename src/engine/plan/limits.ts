/**
 * How deep a plan, or the SQL a plan is imported from, may nest. Every walk of the plan code
 * recurses over the plan (and the SQL parser over the text), so an input nested far enough would
 * overflow the call stack, and one nested hundreds of levels already costs seconds. These checks
 * run first, keep their own stacks and stop at the limit, so they cost little whatever the input;
 * past a limit the answer is PLAN_TOO_COMPLEX, a plan problem the planner is asked to fix.
 */
import type { Dialect } from '../datasources/schema';
import { PlanError } from './errors';

/**
 * Most levels a plan's JSON may nest (objects and arrays). A plan with five levels of subqueries,
 * each with a few conditions, nests about 40.
 */
export const MAX_PLAN_DEPTH = 128;

/**
 * Most levels SQL text may nest: parentheses, CASE .. END, and runs of prefix operators (NOT, -,
 * INTERVAL ..), which are what make the parser recurse (each level costs it a deep stack), plus
 * the set operators (each UNION nests the plan one level, and a long chain is slow to parse).
 */
export const MAX_SQL_NESTING = 64;

export function tooComplex(message: string, details: Record<string, unknown> = {}): PlanError {
  return new PlanError('PLAN_TOO_COMPLEX', message, details);
}

/** A message for a plan nested deeper than MAX_PLAN_DEPTH, or null when it is within it. */
export function planDepthProblem(plan: unknown): string | null {
  if (!exceedsDepth(plan, MAX_PLAN_DEPTH)) return null;
  return `The plan nests more than ${MAX_PLAN_DEPTH} levels deep; write it flatter (fewer nested subqueries, derived tables, CASE or parenthesised expressions).`;
}

/** Throws PLAN_TOO_COMPLEX when `plan` nests deeper than MAX_PLAN_DEPTH. */
export function assertPlanDepth(plan: unknown): void {
  const problem = planDepthProblem(plan);
  if (problem) throw tooComplex(problem, { limit: MAX_PLAN_DEPTH });
}

/** True when `value` nests objects and arrays more than `max` levels (cycles count as too deep). */
export function exceedsDepth(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** Throws PLAN_TOO_COMPLEX when SQL text nests deeper than MAX_SQL_NESTING (see sqlNesting). */
export function assertSqlNesting(sql: string, dialect: Dialect): void {
  const nesting = sqlNesting(sql, dialect, MAX_SQL_NESTING);
  if (nesting > MAX_SQL_NESTING) {
    throw tooComplex(
      `The SQL nests more than ${MAX_SQL_NESTING} levels deep (parentheses, CASE or prefix operators); write it flatter.`,
      { limit: MAX_SQL_NESTING },
    );
  }
}

const PREFIX_WORDS = new Set(['NOT', 'INTERVAL', 'BINARY']);
const SET_OPERATORS = new Set(['UNION', 'INTERSECT', 'EXCEPT']);
const PREFIX_SYMBOLS = new Set(['-', '+', '~', '!']);

/**
 * The deepest nesting of `sql` (stopping once past `stop`), read in one pass without parsing:
 * open parentheses plus open CASE blocks plus the current run of prefix operators plus the set
 * operators met so far (counted for the whole text: more than it nests, never less). Quoted strings,
 * quoted identifiers and comments are skipped, so their text never counts; where the scan could
 * misread (an unusual quote), it errs towards counting more.
 */
export function sqlNesting(sql: string, dialect: Dialect, stop = Number.POSITIVE_INFINITY): number {
  const scan = new NestingScan(sql, dialect === 'mysql');
  return scan.run(stop);
}

class NestingScan {
  private i = 0;
  private parens = 0;
  private cases = 0;
  private prefixRun = 0;
  private setOps = 0;
  private max = 0;

  constructor(
    private readonly sql: string,
    private readonly backslashEscapes: boolean,
  ) {}

  run(stop: number): number {
    const s = this.sql;
    while (this.i < s.length && this.max <= stop) {
      const c = s[this.i]!;
      if (c === "'" || c === '"' || c === '`') this.skipQuoted(c);
      else if (c === '[' && !this.backslashEscapes) this.skipQuoted(']');
      else if (c === '-' && s[this.i + 1] === '-') this.skipTo('\n');
      else if (c === '/' && s[this.i + 1] === '*') this.skipTo('*/');
      else if (/\s/.test(c)) this.i++;
      else if (/[A-Za-z_]/.test(c)) this.word();
      else this.symbol(c);
    }
    return this.max;
  }

  private note(): void {
    this.max = Math.max(this.max, this.parens + this.cases + this.prefixRun + this.setOps);
  }

  private symbol(c: string): void {
    this.i++;
    if (PREFIX_SYMBOLS.has(c)) {
      this.prefixRun++;
      this.note();
      return;
    }
    this.prefixRun = 0;
    if (c === '(') this.parens++;
    else if (c === ')') this.parens = Math.max(0, this.parens - 1);
    this.note();
  }

  private word(): void {
    const start = this.i;
    while (this.i < this.sql.length && /[A-Za-z0-9_$]/.test(this.sql[this.i]!)) this.i++;
    const w = this.sql.slice(start, this.i).toUpperCase();
    if (PREFIX_WORDS.has(w)) {
      this.prefixRun++;
    } else {
      this.prefixRun = 0;
      if (SET_OPERATORS.has(w)) this.setOps++;
      else if (w === 'CASE') this.cases++;
      else if (w === 'END') this.cases = Math.max(0, this.cases - 1);
    }
    this.note();
  }

  /** Skips a quoted string or identifier; a doubled closing quote (or a backslash in MySQL) escapes. */
  private skipQuoted(close: string): void {
    const s = this.sql;
    this.i++;
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (this.backslashEscapes && c === '\\') this.i += 2;
      else if (c === close && s[this.i + 1] === close) this.i += 2;
      else if (c === close) {
        this.i++;
        break;
      } else this.i++;
    }
    this.prefixRun = 0;
  }

  private skipTo(end: string): void {
    const at = this.sql.indexOf(end, this.i + 2);
    this.i = at < 0 ? this.sql.length : at + end.length;
  }
}
