/**
 * A correction sent with a rating is checked as a planner's SQL draft is: imported into a plan
 * against the datasource's schema (one read-only SELECT the plan language expresses, no
 * placeholder), then the one policy decision every plan passes before it is compiled, for the
 * caller's roles. Anything else is CORRECTED_SQL_INVALID naming the problem, so a stored
 * correction (and any suggestion built from it) is one its author could have run.
 */
import type { RolePolicies } from '../policy/rbac';
import type { SchemaSnapshot } from '../datasources/schema';
import { EngineError } from '../errors';
import { importSql, paramNames, PlanError } from '../plan';
import type { Query } from '../plan/types';
import { decidePlan } from '../policy/plan-guard';

export class CorrectedSqlInvalidError extends EngineError {
  constructor(problem: string) {
    super('CORRECTED_SQL_INVALID', `corrected_sql: ${problem}`);
  }
}

export function checkCorrectedSql(
  sql: string,
  subject: {
    readonly datasourceId: string;
    readonly roles: readonly string[];
    readonly snapshot: SchemaSnapshot;
  },
  policies: RolePolicies,
): Query {
  let plan: Query;
  try {
    plan = importSql(sql, subject.snapshot.dialect, subject.snapshot);
  } catch (err) {
    if (err instanceof PlanError) throw new CorrectedSqlInvalidError(`${err.code}: ${err.message}`);
    throw err;
  }
  const [param] = paramNames(plan);
  if (param !== undefined)
    throw new CorrectedSqlInvalidError(`the SQL has a placeholder (:${param}); write the value itself`);
  const decision = decidePlan(plan, subject, policies);
  if (decision.kind === 'cleared') return plan;
  const problems = decision.kind === 'denied' ? decision.refusals : decision.problems;
  // Worded as the run path words them (the validator's messages, with their close-name hints).
  throw new CorrectedSqlInvalidError(problems.map((p) => `${p.code}: ${p.message}`).join('; '));
}
