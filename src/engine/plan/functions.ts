/**
 * The allow-list of scalar functions a plan may call, with arity and result type. A function not
 * listed here cannot appear in a plan (the JSON Schema enumerates these names), so a dialect only
 * has to know how to spell these.
 */
import type { TypeKind } from '../datasources/schema';

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
}

const DATE_PART: FunctionSignature = { minArgs: 1, maxArgs: 1, returns: 'integer' };

export const FUNCTION_SIGNATURES: Record<ScalarFunctionName, FunctionSignature> = {
  lower: { minArgs: 1, maxArgs: 1, returns: 'text' },
  upper: { minArgs: 1, maxArgs: 1, returns: 'text' },
  length: { minArgs: 1, maxArgs: 1, returns: 'integer' },
  trim: { minArgs: 1, maxArgs: 1, returns: 'text' },
  ltrim: { minArgs: 1, maxArgs: 1, returns: 'text' },
  rtrim: { minArgs: 1, maxArgs: 1, returns: 'text' },
  substring: { minArgs: 2, maxArgs: 3, returns: 'text' },
  replace: { minArgs: 3, maxArgs: 3, returns: 'text' },
  abs: { minArgs: 1, maxArgs: 1, returns: 'arg' },
  round: { minArgs: 1, maxArgs: 2, returns: 'float' },
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

export function isScalarFunction(name: string): name is ScalarFunctionName {
  return (SCALAR_FUNCTION_NAMES as readonly string[]).includes(name);
}
