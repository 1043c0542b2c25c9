import { EngineError } from './engine-error';
import type { ErrorCode } from './error-code';

/** A plan or its SQL failed in a way the planner may repair: the refiner retries with `problems`. */
export class PlanRejectedError extends EngineError {
  constructor(
    code: ErrorCode,
    readonly problems: readonly string[],
  ) {
    super(code, problems.join('; '));
    this.name = 'PlanRejectedError';
  }
}
