/**
 * Step `logical_validator`: checks the plan against the datasource's schema and the caller's
 * roles. A policy problem is a refusal (no retry can fix it); any other problem goes back to the
 * planner through the refiner with the validator's repair-oriented messages.
 */
import { Injectable } from '@nestjs/common';
import { REFUSAL_CODES, validatePlan, type PlanProblem } from '../../plan';
import type { PipelineDeps } from '../deps';
import type { RunContext } from '../run-context';
import type { RunState, SubQueryState } from '../run-state';
import { RefusalError } from './datasource-resolver';
import { PlanRejectedError } from './plan-rejected';

@Injectable()
export class LogicalValidator {
  constructor(private readonly deps: PipelineDeps) {}

  async run(sq: SubQueryState, state: RunState, ctx: RunContext): Promise<void> {
    if (!sq.plan || !sq.snapshot) throw new PlanRejectedError('PLAN_MISSING', ['no plan to validate']);
    const result = validatePlan(sq.plan, sq.snapshot, {
      datasourceId: sq.datasourceId,
      roles: state.request.caller.roles,
      rolePolicies: this.deps.config.policies.roles,
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
      sq.refused = true;
      ctx.operator.emit(
        'policy.denied',
        { sub_query_id: sq.id, roles: state.request.caller.roles, problems: denied },
        ctx.traceId,
      );
      throw new RefusalError(denied[0]!.code, `refused: ${denied.map((p) => p.message).join('; ')}`);
    }
    if (wrong.length) {
      throw new PlanRejectedError(
        wrong[0]!.code,
        wrong.map((p) => `${p.path}: ${p.message}`),
      );
    }
  }
}

function isRefusal(p: PlanProblem): boolean {
  return REFUSAL_CODES.includes(p.code);
}

function summary(problems: readonly { message: string }[]): string {
  return problems.length ? problems.map((p) => p.message).join('; ') : 'ok';
}
