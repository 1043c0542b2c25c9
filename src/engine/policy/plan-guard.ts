/**
 * The one policy decision every plan passes before it is compiled, whatever produced it: the
 * planner, the plan cache, a verified query (matched by the model, matched with no model, or run
 * by id), or any producer added later. A plan is compiled only as a `ClearedPlan`, and only
 * `decidePlan` makes one, after the caller's role policies (datasource, table and column rules of
 * the plan validator, so the codes are the same TABLE_DENIED / COLUMN_DENIED / DATASOURCE_DENIED)
 * found nothing the caller may not read. The decision fails closed: a plan the validator cannot
 * read through (its shape is wrong, a name is unknown) is never cleared, since a policy check that
 * stopped early proves nothing.
 *
 * `compileCleared` is the pipeline's only way to compile (test/engine/policy/compile-choke-point
 * keeps it so): code that compiles a plan without a policy decision does not type-check.
 *
 * After the role checks, the same decision applies the caller's row filters and column masks
 * (policy-rewrite.ts): the cleared plan is the plan as this caller may read it, with the caller's
 * attribute values as its parameters, so every producer gets them with no code of its own. What
 * shaped it (filters, masks, what the model may see) is reported as `policies_applied`.
 */
import type { SchemaSnapshot } from '../datasources/schema';
import { isErrorCode, RefusalError, type ErrorCode } from '../errors';
import {
  compilePlan,
  REFUSAL_CODES,
  validatePlan,
  type CompileOptions,
  type CompiledSql,
  type PlanProblem,
} from '../plan';
import { ATTRIBUTE_PARAM_PREFIX } from '../plan';
import type { Query } from '../plan/types';
import { paramNames } from '../plan/walk';
import { modelSeesApplied, modelSeesFor } from './model-sees';
import { applyRowPolicies } from './policy-rewrite';
import type { RolePolicies } from './rbac';
import type { CallerAttributes } from './row-filters';
import type { PolicyApplied } from './table-policies';

/** Who asks, on which datasource, against which schema. */
export interface PolicySubject {
  readonly datasourceId: string;
  readonly roles: readonly string[];
  readonly snapshot: SchemaSnapshot;
  /** The caller's attributes, which row filters read as `:user.<name>`; none when absent. */
  readonly attributes?: CallerAttributes;
}

declare const CLEARED: unique symbol;

/** A plan the caller's policies allow on one datasource. Only `decidePlan` makes one. */
export interface ClearedPlan {
  /** The plan as the caller may read it: its row filters and masks applied. */
  readonly plan: Query;
  readonly datasourceId: string;
  /** The caller's attribute values the filters read, by parameter name (`user.region`). */
  readonly params: Readonly<Record<string, string>>;
  /** The policies that shaped the plan and its answer (`policies_applied`). */
  readonly applied: readonly PolicyApplied[];
  readonly [CLEARED]: true;
}

export type PolicyDecision =
  | { readonly kind: 'cleared'; readonly cleared: ClearedPlan }
  /** The caller may not read something the plan reads: a refusal, never retried. */
  | { readonly kind: 'denied'; readonly refusals: readonly PlanProblem[] }
  /** The plan does not validate against the schema, so its reads cannot be known: not cleared. */
  | { readonly kind: 'invalid'; readonly problems: readonly PlanProblem[] };

/** The policy decision on one plan for one caller. Pure: the same inputs give the same answer. */
export function decidePlan(plan: Query, subject: PolicySubject, policies: RolePolicies): PolicyDecision {
  const result = validatePlan(plan, subject.snapshot, {
    datasourceId: subject.datasourceId,
    roles: subject.roles,
    rolePolicies: policies,
  });
  const refusals = result.problems.filter(isRefusal);
  if (refusals.length) return { kind: 'denied', refusals };
  if (result.problems.length) return { kind: 'invalid', problems: result.problems };
  const reserved = [...paramNames(plan)].find((n) => n.startsWith(ATTRIBUTE_PARAM_PREFIX));
  if (reserved !== undefined)
    return {
      kind: 'invalid',
      problems: [
        {
          code: 'PLAN_SCHEMA_VIOLATION',
          path: '/',
          message: `The parameter "${reserved}" is reserved: names starting with "${ATTRIBUTE_PARAM_PREFIX}" hold the caller's attributes for row filters.`,
        },
      ],
    };
  const rewrite = applyRowPolicies(plan, { ...subject, attributes: subject.attributes ?? {} }, policies);
  if (rewrite.kind === 'refused') return { kind: 'denied', refusals: rewrite.problems };
  const applied = [...rewrite.applied, ...modelSeesApplied(modelSeesFor(policies, subject.roles))];
  const cleared = {
    plan: rewrite.plan,
    datasourceId: subject.datasourceId,
    params: rewrite.params,
    applied,
  } as unknown as ClearedPlan;
  return { kind: 'cleared', cleared };
}

/** True when the caller may run the plan (for listings: only what a caller may run is shown). */
export function planAllowed(plan: Query, subject: PolicySubject, policies: RolePolicies): boolean {
  return decidePlan(plan, subject, policies).kind === 'cleared';
}

/** The refusal for policy problems, worded the same on every path (no path says more than another). */
export class PolicyRefusalError extends RefusalError {
  constructor(readonly refusals: readonly PlanProblem[]) {
    super(codeOf(refusals[0]), `refused: ${refusals.map((p) => p.message).join('; ')}`);
    this.name = 'PolicyRefusalError';
  }
}

export function isRefusal(p: PlanProblem): boolean {
  return REFUSAL_CODES.includes(p.code);
}

/** Compiles a cleared plan: the one compile of a plan that is about to run. */
export function compileCleared(
  cleared: ClearedPlan,
  dialect: SchemaSnapshot['dialect'],
  options: CompileOptions = {},
): CompiledSql {
  return compilePlan(cleared.plan, dialect, { ...options, params: { ...options.params, ...cleared.params } });
}

function codeOf(p: PlanProblem | undefined): ErrorCode {
  return p && isErrorCode(p.code) ? p.code : 'TABLE_DENIED';
}
