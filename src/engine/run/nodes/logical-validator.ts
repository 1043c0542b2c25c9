/**
 * Step `logical_validator`: checks the plan against the datasource's schema and the caller's
 * roles. A policy problem is a refusal (no retry can fix it); any other problem goes back to the
 * planner through the refiner with the validator's repair-oriented messages.
 */
import { Inject, Injectable } from '@nestjs/common';
import { ENGINE_CONFIG, type EngineConfig } from '../../engine-config';
import { isErrorCode, PlanRejectedError, type ErrorCode } from '../../errors';
import { validatePlan, type PlanProblem } from '../../plan';
import { isRefusal, PolicyRefusalError } from '../../policy/plan-guard';
import type { RunContext } from '../run-context';
import type { SubQueryAttempt } from '../run-state';
import type { SubQueryNode } from '../node';

@Injectable()
export class LogicalValidator implements SubQueryNode {
  constructor(@Inject(ENGINE_CONFIG) private readonly config: EngineConfig) {}

  /**
   * A verified query's schema was checked at start-up; every other plan is checked here. Policies
   * decide again for every plan, verified ones included, where it is compiled (the generator).
   */
  applies(attempt: SubQueryAttempt): boolean {
    return attempt.sq.planSource !== 'verified';
  }

  async run(attempt: SubQueryAttempt, ctx: RunContext): Promise<void> {
    const { sq, run: state } = attempt;
    if (!sq.plan || !sq.snapshot) throw new PlanRejectedError('PLAN_MISSING', ['no plan to validate']);
    const result = validatePlan(sq.plan, sq.snapshot, {
      datasourceId: sq.datasourceId,
      roles: state.request.caller.roles,
      rolePolicies: this.config.policies.roles,
    });
    const denied = result.problems.filter(isRefusal);
    const wrong = result.problems.filter((p) => !isRefusal(p));
    sq.validation = [
      { name: 'schema', passed: !wrong.length, message: summary(wrong) },
      { name: 'policy', passed: !denied.length, message: summary(denied) },
    ];
    for (const w of result.warnings) {
      ctx.warn({
        code: w.code,
        node: 'logical_validator',
        message: w.message,
        sub_query_id: sq.id,
        detail: { path: w.path },
      });
    }
    if (denied.length) {
      ctx.operator.emit(
        'policy.denied',
        { sub_query_id: sq.id, roles: state.request.caller.roles, problems: denied },
        ctx.traceId,
      );
      throw new PolicyRefusalError(denied);
    }
    if (wrong.length) {
      throw new PlanRejectedError(
        errorCodeOf(wrong[0]!),
        wrong.map((p) => `${p.path}: ${p.message}`),
      );
    }
  }
}

/** Every problem code of the validator is an ErrorCode; warnings never come here. */
function errorCodeOf(p: PlanProblem): ErrorCode {
  return isErrorCode(p.code) ? p.code : 'PLAN_INVALID';
}

function summary(problems: readonly { message: string }[]): string {
  return problems.length ? problems.map((p) => p.message).join('; ') : 'ok';
}
