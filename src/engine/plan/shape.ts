/**
 * The shape check: does a value match the plan's JSON Schema (the same schema the model is given)?
 * The validator reports the mismatches as problems; the compiler refuses a plan that does not
 * match, so no field it spells into SQL (an operator, a function name, a join type) can hold text
 * other than the values the schema allows, whoever built the plan.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { buildPlanJsonSchema } from './generate';

let shapeValidator: ValidateFunction | null = null;

function validator(): ValidateFunction {
  shapeValidator ??= new Ajv({ allErrors: false, strict: false }).compile(buildPlanJsonSchema());
  return shapeValidator;
}

/** The schema mismatches of `plan` (the first few), or [] when it matches. Check its depth first. */
export function shapeErrors(plan: unknown): readonly ErrorObject[] {
  const check = validator();
  return check(plan) ? [] : (check.errors ?? []).slice(0, 5);
}

/** One mismatch as a sentence a model can repair the plan from. */
export function describeShapeError(e: ErrorObject): string {
  const at = e.instancePath || '/';
  const allowed =
    e.params && 'allowedValues' in e.params ? ` (${(e.params.allowedValues as string[]).join(', ')})` : '';
  const extra =
    e.params && 'additionalProperty' in e.params ? ` ("${String(e.params.additionalProperty)}")` : '';
  return `The plan does not match the plan schema at ${at}: ${e.message ?? 'invalid'}${allowed}${extra}`;
}
