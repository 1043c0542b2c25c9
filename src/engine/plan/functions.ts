/**
 * The allow-lists of scalar and window functions a plan may call, each with its arity and result
 * type. A function not listed here cannot appear in a plan (the JSON Schema enumerates these
 * names), so a dialect only has to know how to spell these; code that meets a name not listed
 * (a plan that skipped the shape check) refuses it instead of guessing.
 */
import type { TypeKind } from '../datasources/schema';
import { PlanError } from './errors';

export const SCALAR_FUNCTION_NAMES = [
  'lower',
  'upper',
  'length',
  'trim',
  'ltrim',
  'rtrim',
  'substring',
  'replace',
  'abs',
  'round',
  'floor',
  'ceil',
  'coalesce',
  'nullif',
  'year',
  'month',
  'day',
  'hour',
  'minute',
  'second',
  'current_date',
] as const;
export type ScalarFunctionName = (typeof SCALAR_FUNCTION_NAMES)[number];

export interface FunctionSignature {
  readonly minArgs: number;
  readonly maxArgs: number;
  /** Result type; 'arg' means the type of the first argument. */
  readonly returns: TypeKind | 'arg';
  /**
   * Positions of arguments that are integer counts or positions (ROUND's digits, SUBSTR's start
   * and length): some engines define these functions for INTEGER only, so they are passed as one.
   */
  readonly integerArgs?: readonly number[];
}

const DATE_PART: FunctionSignature = { minArgs: 1, maxArgs: 1, returns: 'integer' };

export const FUNCTION_SIGNATURES: Record<ScalarFunctionName, FunctionSignature> = {
  lower: { minArgs: 1, maxArgs: 1, returns: 'text' },
  upper: { minArgs: 1, maxArgs: 1, returns: 'text' },
  length: { minArgs: 1, maxArgs: 1, returns: 'integer' },
  trim: { minArgs: 1, maxArgs: 1, returns: 'text' },
  ltrim: { minArgs: 1, maxArgs: 1, returns: 'text' },
  rtrim: { minArgs: 1, maxArgs: 1, returns: 'text' },
  substring: { minArgs: 2, maxArgs: 3, returns: 'text', integerArgs: [1, 2] },
  replace: { minArgs: 3, maxArgs: 3, returns: 'text' },
  abs: { minArgs: 1, maxArgs: 1, returns: 'arg' },
  round: { minArgs: 1, maxArgs: 2, returns: 'float', integerArgs: [1] },
  floor: { minArgs: 1, maxArgs: 1, returns: 'arg' },
  ceil: { minArgs: 1, maxArgs: 1, returns: 'arg' },
  coalesce: { minArgs: 1, maxArgs: 16, returns: 'arg' },
  nullif: { minArgs: 2, maxArgs: 2, returns: 'arg' },
  year: DATE_PART,
  month: DATE_PART,
  day: DATE_PART,
  hour: DATE_PART,
  minute: DATE_PART,
  second: DATE_PART,
  current_date: { minArgs: 0, maxArgs: 0, returns: 'date' },
};

export const WINDOW_FUNCTION_NAMES = [
  'row_number',
  'rank',
  'dense_rank',
  'percent_rank',
  'cume_dist',
  'ntile',
  'lag',
  'lead',
  'first_value',
  'last_value',
  'count',
  'sum',
  'avg',
  'min',
  'max',
] as const;
export type WindowFunctionName = (typeof WINDOW_FUNCTION_NAMES)[number];

export interface WindowSignature {
  readonly minArgs: number;
  readonly maxArgs: number;
  /** Result type; 'arg' is the first argument's type, 'aggregate' the aggregate's over it. */
  readonly returns: TypeKind | 'arg' | 'aggregate';
  /** Positions of integer arguments (NTILE's buckets, LAG/LEAD's offset), as in FunctionSignature. */
  readonly integerArgs?: readonly number[];
}

const RANKING: WindowSignature = { minArgs: 0, maxArgs: 0, returns: 'integer' };
const DISTRIBUTION: WindowSignature = { minArgs: 0, maxArgs: 0, returns: 'float' };
const OFFSET: WindowSignature = { minArgs: 1, maxArgs: 3, returns: 'arg', integerArgs: [1] };
const AGGREGATE: WindowSignature = { minArgs: 1, maxArgs: 1, returns: 'aggregate' };

export const WINDOW_SIGNATURES: Record<WindowFunctionName, WindowSignature> = {
  row_number: RANKING,
  rank: RANKING,
  dense_rank: RANKING,
  percent_rank: DISTRIBUTION,
  cume_dist: DISTRIBUTION,
  ntile: { minArgs: 1, maxArgs: 1, returns: 'integer', integerArgs: [0] },
  lag: OFFSET,
  lead: OFFSET,
  first_value: { minArgs: 1, maxArgs: 1, returns: 'arg' },
  last_value: { minArgs: 1, maxArgs: 1, returns: 'arg' },
  count: { minArgs: 0, maxArgs: 1, returns: 'integer' },
  sum: AGGREGATE,
  avg: AGGREGATE,
  min: AGGREGATE,
  max: AGGREGATE,
};

export function isScalarFunction(name: string): name is ScalarFunctionName {
  return (SCALAR_FUNCTION_NAMES as readonly string[]).includes(name);
}

export function isWindowFunction(name: string): name is WindowFunctionName {
  return (WINDOW_FUNCTION_NAMES as readonly string[]).includes(name);
}

/** The signature of an allow-listed scalar function; a name off the list is a malformed plan. */
export function scalarSignature(name: string): FunctionSignature {
  if (!isScalarFunction(name)) throw new PlanError('PLAN_MALFORMED', `Unknown scalar function "${name}"`);
  return FUNCTION_SIGNATURES[name];
}

/** The signature of an allow-listed window function; a name off the list is a malformed plan. */
export function windowSignature(name: string): WindowSignature {
  if (!isWindowFunction(name)) throw new PlanError('PLAN_MALFORMED', `Unknown window function "${name}"`);
  return WINDOW_SIGNATURES[name];
}
