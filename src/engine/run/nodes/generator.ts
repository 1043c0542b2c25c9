/**
 * Step `generator`: compiles the validated plan to SQL for the datasource's dialect, with every
 * value bound and the row cap applied (at most row_cap + 1 rows can come back, so a cut is seen).
 */
import { Injectable } from '@nestjs/common';
import { DatasourceRegistry } from '../../datasources/registry';
import { rowCapOf } from '../../../config/defaults';
import { compilePlan, PlanError } from '../../plan';
import type { SubQueryAttempt } from '../run-state';
import type { SubQueryNode } from '../node';
import { PlanRejectedError } from '../../errors';

@Injectable()
export class Generator implements SubQueryNode {
  constructor(private readonly datasources: DatasourceRegistry) {}

  async run(attempt: SubQueryAttempt): Promise<void> {
    const { sq } = attempt;
    const paramValues = sq.verifiedParams ?? {};
    const entry = this.datasources.require(sq.datasourceId);
    if (!sq.plan) throw new PlanRejectedError('PLAN_MISSING', ['no plan to compile']);
    const cap = rowCapOf(entry.config);
    let compiled: ReturnType<typeof compilePlan>;
    try {
      compiled = compilePlan(sq.plan, entry.adapter.dialect, {
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
    sq.sql = sq.verified ? sq.verified.sql : compiled.displaySql;
    sq.params = compiled.params;
    sq.datasourceRowCap = cap;
    sq.appliedRowCap = compiled.rowCapApplied;
    sq.executableSql = compiled.sql;
  }
}
