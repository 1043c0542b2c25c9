/**
 * Public API of the plan layer (pure TypeScript: no Nest, no connection). The pipeline calls:
 *
 *   validatePlan(plan: unknown, schema: SchemaSnapshot, ctx: ValidationContext): ValidationResult
 *     Shape (JSON Schema) + names, grouping, joins, functions, LIMIT bounds and role policies.
 *     `ctx = { datasourceId, roles?, rolePolicies? (config policies.roles), maxLimit? }`.
 *     Returns `{ ok, problems, warnings }`; each problem `{ code, path, message, suggestion? }` has a
 *     stable code (PROBLEM_CODES; REFUSAL_CODES are policy refusals), a JSON Pointer path into the
 *     plan and a message a model can repair the plan from.
 *
 *   compilePlan(plan: Plan, dialect: Dialect, options?: { rowCap?, schema?, params? }): CompiledSql
 *     `{ sql, params, dialect, displaySql, rowCapApplied }`: every literal bound ($1.. for postgres
 *     and duckdb, ? for sqlite and mysql); displaySql has values inlined as escaped literals (show
 *     it, never run it); the SQL returns at most rowCap + 1 rows and rowCapApplied is null when the
 *     plan's own LIMIT was within the cap. Pass the datasource's schema: column types keep the
 *     plan's meaning across engines, and primary keys make every ORDER BY total (tie-breakers in
 *     SQLite's order: compiler/order.ts), so all engines return the same rows and pages are
 *     stable. Throws PlanError PLAN_UNSUPPORTED (a construct the dialect cannot express),
 *     PLAN_PARAM_MISSING, PLAN_MALFORMED.
 *
 *   importSql(sql: string, sourceDialect: Dialect, schema?: SchemaSnapshot | null): Plan
 *     One SELECT -> plan. Throws PlanError SQL_PARSE_ERROR or SQL_IMPORT_UNSUPPORTED (naming the
 *     construct). With the schema, SQLite's "double-quoted" strings are told from identifiers and
 *     JOIN .. USING becomes an ON condition.
 *
 *   importRowFilter(text: string, dialect: Dialect): Expr
 *     A row filter (`policies.roles.<role>.rows`) -> one boolean expression; `:user.<name>` is the
 *     parameter `user.<name>` (only here). Anything beyond one expression over one row is refused.
 *
 *   paramNames(plan: Plan): Set<string>
 *     The names of the `param` nodes anywhere in the plan (a verified query's placeholders).
 *
 *   PLAN_JSON_SCHEMA: the JSON Schema given to the model (root: a query object; strict-mode safe).
 */
import type { Dialect } from '../datasources/schema';
import { PlanCompiler, type CompileOptions, type CompiledSql } from './compiler/compiler';
import { dialectFor } from './compiler/dialects';
import { buildPlanJsonSchema } from './generate';
import { assertPlanDepth } from './limits';
import { PlanError } from './errors';
import { describeShapeError, shapeErrors } from './shape';
import type { Plan } from './types';

export { importSql, type ImportOptions } from './importer/importer';
export { importRowFilter, filterAttributes, ATTRIBUTE_PARAM_PREFIX } from './importer/row-filter';
export { isSqlExpression } from './importer/sql-expression';
export {
  validatePlan,
  PROBLEM_CODES,
  WARNING_CODES,
  REFUSAL_CODES,
  type PlanProblem,
  type ProblemCode,
  type ValidationContext,
  type ValidationResult,
} from './validator/validator';
export type { RolePolicies } from './validator/policy';
export { PlanError, PLAN_ERROR_CODES, type PlanErrorCode } from './errors';
export { MAX_PLAN_DEPTH, MAX_SQL_NESTING, exceedsDepth } from './limits';
export type { CompileOptions, CompiledSql } from './compiler/compiler';
export { SCALAR_FUNCTION_NAMES, type ScalarFunctionName } from './functions';
export type * from './types';
export { paramNames } from './walk';
export * as planBuilder from './build';

export const PLAN_JSON_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze(buildPlanJsonSchema());

export function compilePlan(plan: Plan, dialect: Dialect, options: CompileOptions = {}): CompiledSql {
  assertPlanDepth(plan);
  // Whoever built the plan (planner, cache, verified query, caller): what the compiler spells into
  // SQL (operators, names, join types, directions) can only be what the schema allows.
  const [mismatch] = shapeErrors(plan);
  if (mismatch)
    throw new PlanError('PLAN_MALFORMED', describeShapeError(mismatch), {
      path: mismatch.instancePath || '/',
    });
  return PlanCompiler.compile(plan, dialectFor(dialect), options);
}
