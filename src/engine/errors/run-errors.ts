/**
 * How a run stops short of an answer besides a rejected plan: the caller went away, a refusal that
 * no retry can change, or a cap of `settings.pipeline` reached. The pipeline turns each into an
 * `errors[]` entry; only a cancellation ends the run itself.
 */
import { EngineError } from './engine-error';
import type { ErrorCode } from './error-code';

/**
 * The one cancellation error: the caller went away (or aborted its signal). Raised before the next
 * step or model call, and by a model call cut short by the run's signal.
 */
export class RunCancelledError extends EngineError {
  constructor(message = 'the run was cancelled (the client went away)') {
    super('RUN_CANCELLED', message);
    this.name = 'RunCancelledError';
  }
}

/** A refusal: no retry of the planner can change it (a role, a hook, a question nothing answers). */
export class RefusalError extends EngineError {
  constructor(code: ErrorCode, message: string) {
    super(code, message);
    this.name = 'RefusalError';
  }
}

/** A cap of `settings.pipeline` (`max_model_calls`, `max_cost_usd`) stopped the run before a model call. */
export class RunLimitError extends EngineError {
  constructor(code: Extract<ErrorCode, 'RUN_CALL_LIMIT' | 'RUN_COST_LIMIT'>, message: string) {
    super(code, message);
    this.name = 'RunLimitError';
  }
}
