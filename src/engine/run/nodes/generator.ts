/**
 * Step `generator`: compiles the validated plan to SQL for the datasource's dialect, with every
 * value bound and the row cap applied (at most row_cap + 1 rows can come back, so a cut is seen).
 * Whatever produced the plan (planner, cache, verified query), the caller's role policies decide
 * here first (policy/plan-guard.ts): only a cleared plan compiles.
 */
import { Inject, Injectable } from '@nestjs/common';
import { DatasourceRegistry } from '../../datasources/registry';
import { rowCapOf } from '../../../config/defaults';
import { ENGINE_CONFIG, type EngineConfig } from '../../engine-config';
import { EngineError, isErrorCode } from '../../errors';
import { PlanError, type CompiledSql } from '../../plan';
import { compileCleared, decidePlan, PolicyRefusalError, type ClearedPlan } from '../../policy/plan-guard';
import type { RunContext } from '../run-context';
import type { SubQueryAttempt } from '../run-state';
import type { SubQueryNode } from '../node';
import { PlanRejectedError } from '../../errors';

@Injectable()
export class Generator implements SubQueryNode {
  constructor(
    private readonly datasources: DatasourceRegistry,
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
  ) {}

  async run(attempt: SubQueryAttempt, ctx: RunContext): Promise<void> {
    const { sq } = attempt;
    const paramValues = sq.verifiedParams ?? {};
    const entry = this.datasources.require(sq.datasourceId);
    if (!sq.plan) throw new PlanRejectedError('PLAN_MISSING', ['no plan to compile']);
    const cleared = this.clear(attempt, ctx);
    const cap = rowCapOf(entry.config);
    let compiled: CompiledSql;
    try {
      compiled = compileCleared(cleared, entry.adapter.dialect, {
        rowCap: cap,
        schema: sq.snapshot ?? undefined,
        params: paramValues,
      });
    } catch (err) {
      // A construct this dialect cannot express: the planner may say it another way.
      if (err instanceof PlanError && (err.code === 'PLAN_UNSUPPORTED' || err.code === 'PLAN_MALFORMED')) {
        throw new PlanRejectedError(err.code, [err.message]);
      }
      throw err;
    }
    // A verified query shows its own SQL, unless a row filter or a mask changed what runs: the
    // SQL shown is then what ran, filters included.
    const reshaped = cleared.applied.some((p) => p.kind !== 'model_sees');
    sq.sql = sq.verified && !reshaped ? sq.verified.sql : compiled.displaySql;
    sq.params = compiled.params;
    sq.datasourceRowCap = cap;
    sq.appliedRowCap = compiled.rowCapApplied;
    sq.executableSql = compiled.sql;
  }

  /** The policy decision on this plan for this caller; a refusal is recorded as the validator's is. */
  private clear(attempt: SubQueryAttempt, ctx: RunContext): ClearedPlan {
    const { sq, run } = attempt;
    if (!sq.plan || !sq.snapshot)
      throw new EngineError('DATASOURCE_UNAVAILABLE', `no schema for datasource '${sq.datasourceId}'`);
    const { roles, attributes } = run.request.caller;
    const decision = decidePlan(
      sq.plan,
      { datasourceId: sq.datasourceId, roles, snapshot: sq.snapshot, attributes },
      this.config.policies.roles,
    );
    sq.policiesApplied = decision.kind === 'cleared' ? decision.cleared.applied : [];
    switch (decision.kind) {
      case 'cleared':
        if (!sq.validation.some((v) => v.name === 'policy'))
          sq.validation = [...sq.validation, { name: 'policy', passed: true, message: 'ok' }];
        return decision.cleared;
      case 'denied': {
        const refusal = new PolicyRefusalError(decision.refusals);
        // Nothing of the refused plan is shown: not which verified query it was, nor its SQL.
        sq.validation = [{ name: 'policy', passed: false, message: refusal.message }];
        ctx.operator.emit(
          'policy.denied',
          { sub_query_id: sq.id, roles, problems: decision.refusals },
          ctx.traceId,
        );
        throw refusal;
      }
      case 'invalid': {
        const first = decision.problems[0]?.code;
        throw new PlanRejectedError(
          isErrorCode(first) ? first : 'PLAN_INVALID',
          decision.problems.map((p) => `${p.path}: ${p.message}`),
        );
      }
    }
  }
}
