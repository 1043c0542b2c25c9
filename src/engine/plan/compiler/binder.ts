/**
 * The one place where a value of a plan becomes SQL text. A value (a literal, a parameter's value,
 * a LIKE pattern) is never spliced into the statement that runs: it is appended to the parameters
 * and replaced by the dialect's placeholder. Only the display statement, which is shown and never
 * run, gets the dialect's escaped literal. Integers of LIMIT, OFFSET and window frames are the
 * only numbers written into the SQL, and only as checked safe integers (dialect.ts `integer`).
 */
import { PlanError } from '../errors';
import type { SqlDialect } from './dialect';
import type { TypedValue } from './typed-value';

export type BoundValue = string | number | boolean;

export class Binder {
  readonly params: BoundValue[] = [];

  /** `display`: render values as escaped literals (the display statement) instead of binding them. */
  constructor(
    private readonly d: SqlDialect,
    private readonly display: boolean,
  ) {}

  bind(v: TypedValue): string {
    if (typeof v.value === 'number' && !Number.isFinite(v.value)) {
      throw new PlanError('PLAN_MALFORMED', `A numeric literal must be finite, got ${v.value}`);
    }
    if (typeof v.value !== 'string' && typeof v.value !== 'number' && typeof v.value !== 'boolean') {
      throw new PlanError(
        'PLAN_MALFORMED',
        `A value must be a string, a number or a boolean, got ${typeof v.value}`,
      );
    }
    if (this.display) return this.d.inlineLiteral(v);
    this.params.push(this.d.paramValue(v));
    return this.d.placeholder(this.params.length, v);
  }
}
