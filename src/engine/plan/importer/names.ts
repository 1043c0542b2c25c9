/**
 * The importer's spelling tables: which parser dialect reads each datasource's SQL, and the source
 * spellings of functions, date parts and cast types that the plan language expresses.
 */
import type { Dialect } from '../../datasources/schema';
import type { ScalarFunctionName } from '../functions';
import type * as T from '../types';

/** DuckDB's SELECT syntax is read as PostgreSQL's. */
export const PARSER_DIALECT: Record<Dialect, 'sqlite' | 'postgresql' | 'mysql'> = {
  sqlite: 'sqlite',
  postgres: 'postgresql',
  duckdb: 'postgresql',
  mysql: 'mysql',
};

export const FUNCTION_ALIASES: Readonly<Record<string, ScalarFunctionName>> = {
  lower: 'lower',
  lcase: 'lower',
  upper: 'upper',
  ucase: 'upper',
  length: 'length',
  char_length: 'length',
  trim: 'trim',
  ltrim: 'ltrim',
  rtrim: 'rtrim',
  substr: 'substring',
  substring: 'substring',
  replace: 'replace',
  abs: 'abs',
  round: 'round',
  floor: 'floor',
  ceil: 'ceil',
  ceiling: 'ceil',
  coalesce: 'coalesce',
  ifnull: 'coalesce',
  nullif: 'nullif',
  year: 'year',
  month: 'month',
  day: 'day',
  hour: 'hour',
  minute: 'minute',
  second: 'second',
  current_date: 'current_date',
};

/** EXTRACT / date_part units the plan's date-part functions express (plural spellings are DuckDB's). */
export const DATE_PART_UNITS: Readonly<Record<string, ScalarFunctionName>> = {
  year: 'year',
  years: 'year',
  month: 'month',
  months: 'month',
  day: 'day',
  days: 'day',
  hour: 'hour',
  hours: 'hour',
  minute: 'minute',
  minutes: 'minute',
  second: 'second',
  seconds: 'second',
};

/** strftime formats whose text equals the text of an integer date part (zero-padded ones do not). */
export const STRFTIME_PARTS: Readonly<Record<string, ScalarFunctionName>> = { '%Y': 'year' };

export const CAST_NAMES: readonly [RegExp, T.Cast['to']][] = [
  [/^(INT|INTEGER|BIGINT|SMALLINT|TINYINT|SIGNED|UNSIGNED|INT2|INT4|INT8|HUGEINT)$/, 'integer'],
  [/^(REAL|FLOAT|DOUBLE|DOUBLE PRECISION|FLOAT4|FLOAT8)$/, 'float'],
  [/^(NUMERIC|DECIMAL|NUMBER)$/, 'decimal'],
  [/^(TEXT|VARCHAR|CHAR|STRING|CHARACTER VARYING|CHARACTER|NVARCHAR|CLOB)$/, 'text'],
  [/^(BOOLEAN|BOOL)$/, 'boolean'],
  [/^DATE$/, 'date'],
  [/^(TIMESTAMP|DATETIME)$/, 'timestamp'],
];

export const AGGREGATE_NAMES: readonly string[] = ['count', 'sum', 'avg', 'min', 'max'];

/** `table[key]` for own keys only: a name like "constructor" is not a function the plan knows. */
export function lookup<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
