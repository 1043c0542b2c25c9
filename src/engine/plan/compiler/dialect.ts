/**
 * What a SQL dialect decides. `BaseDialect` holds the standard spelling; each engine's class in
 * dialects.ts overrides only what differs (quoting, placeholders, concatenation, date parts,
 * division, LIKE, NULL ordering, set-operation operands, LIMIT forms). A construct a dialect cannot
 * express goes through `unsupported()`: a typed PLAN_UNSUPPORTED error, never different SQL.
 */
import type { Dialect as DialectName } from '../../datasources/schema';
import type { PlanError } from '../errors';
import { unsupported } from '../errors';
import type { ScalarFunctionName } from '../functions';
import type { InferredType } from '../types';
import type { CastType } from '../ast';
import type { TypedValue } from './typed-value';

export type { AggregateFn } from '../types';
import type { AggregateFn } from '../types';

export interface SqlDialect {
  readonly name: DialectName;
  readonly supportsFullJoin: boolean;
  readonly supportsSetOpAll: boolean;
  /** True when a grouped select's bare columns must be rewritten (SQLite accepts them natively). */
  readonly needsBareColumnRewrite: boolean;
  quote(identifier: string): string;
  quoteTable(name: string, schema: string | null): string;
  placeholder(index: number, v: TypedValue): string;
  /** The value handed to the driver for a bound literal. */
  paramValue(v: TypedValue): string | number | boolean;
  inlineLiteral(v: TypedValue): string;
  booleanConstant(v: boolean): string;
  concat(parts: string[]): string;
  divide(l: string, r: string): string;
  intDivide(l: string, r: string): string;
  cast(sql: string, to: CastType, from: InferredType): string;
  /** Text read as a number the way SQLite does: numeric text is its number, other text is 0. */
  textToFloat(sql: string): string;
  /** An argument a function takes as an integer count or position, as this engine's functions want it. */
  integerArgument(sql: string): string;
  func(name: ScalarFunctionName, args: string[], argTypes: InferredType[]): string;
  aggregate(fn: AggregateFn, arg: string, distinct: boolean, argType: InferredType): string;
  like(
    subject: string,
    pattern: string,
    negated: boolean,
    caseInsensitive: boolean,
    literalPattern: boolean,
  ): string;
  /** The pattern value as this dialect must receive it (escape characters differ). */
  likePatternValue(pattern: string, caseInsensitive: boolean): string;
  orderItem(sql: string, direction: 'asc' | 'desc', nulls: 'first' | 'last'): string;
  limitClause(limit: number | null, offset: number | null): string;
  /** A set-operation operand that is itself a set operation or a query with its own clauses. */
  setOperand(sql: string, side: 'left' | 'right', isSetOp: boolean): string;
  /** The value of `col` from the row where `key` is largest/smallest (SQLite's bare-column rule). */
  argExtreme(col: string, key: string, which: 'max' | 'min', kind: InferredType): string;
  /** Any value of `col` within the group (all equal when it depends on the group key). */
  anyValue(col: string, kind: InferredType): string;
  unsupported(construct: string, hint?: string): PlanError;
}

const DATE_PARTS = ['year', 'month', 'day', 'hour', 'minute', 'second'] as const;
type DatePart = (typeof DATE_PARTS)[number];
const isDatePart = (n: string): n is DatePart => (DATE_PARTS as readonly string[]).includes(n);

export abstract class BaseDialect implements SqlDialect {
  abstract readonly name: DialectName;
  readonly supportsFullJoin: boolean = true;
  readonly supportsSetOpAll: boolean = true;
  readonly needsBareColumnRewrite: boolean = true;
  protected abstract readonly castNames: Record<CastType, string>;

  quote(identifier: string): string {
    if (identifier.includes('\u0000')) throw this.unsupported('an identifier containing a NUL character');
    return `"${identifier.replace(/"/g, '""')}"`;
  }

  quoteTable(name: string, schema: string | null): string {
    return schema ? `${this.quote(schema)}.${this.quote(name)}` : this.quote(name);
  }

  abstract placeholder(index: number, v: TypedValue): string;

  paramValue(v: TypedValue): string | number | boolean {
    return v.value;
  }

  inlineLiteral(v: TypedValue): string {
    if (typeof v.value === 'boolean') return v.value ? 'TRUE' : 'FALSE';
    if (typeof v.value === 'number') {
      if (!Number.isFinite(v.value)) throw this.unsupported('a non-finite number');
      const text = String(v.value);
      return v.type === 'float' && Number.isInteger(v.value) ? `${text}.0` : text;
    }
    return this.stringLiteral(v.value);
  }

  protected stringLiteral(s: string): string {
    if (s.includes('\u0000')) throw this.unsupported('a string containing a NUL character');
    return `'${s.replace(/'/g, "''")}'`;
  }

  booleanConstant(v: boolean): string {
    return v ? 'TRUE' : 'FALSE';
  }

  concat(parts: string[]): string {
    return parts.join(' || ');
  }

  divide(l: string, r: string): string {
    return `${l} / ${r}`;
  }

  intDivide(l: string, r: string): string {
    return `${l} / ${r}`;
  }

  cast(sql: string, to: CastType, _from: InferredType): string {
    return `CAST(${sql} AS ${this.castNames[to]})`;
  }

  textToFloat(sql: string): string {
    return this.cast(sql, 'float', 'text');
  }

  integerArgument(sql: string): string {
    return sql;
  }

  func(name: ScalarFunctionName, args: string[], argTypes: InferredType[]): string {
    if (isDatePart(name)) return this.datePart(name, args[0]!, argTypes[0] ?? 'unknown');
    switch (name) {
      case 'substring':
        return `SUBSTR(${args.join(', ')})`;
      case 'ceil':
        return `CEIL(${args.join(', ')})`;
      case 'current_date':
        return 'CURRENT_DATE';
      case 'lower':
      case 'upper':
      case 'length':
      case 'trim':
      case 'ltrim':
      case 'rtrim':
      case 'replace':
      case 'abs':
      case 'round':
      case 'floor':
      case 'coalesce':
      case 'nullif':
        return `${name.toUpperCase()}(${args.join(', ')})`;
    }
  }

  protected datePart(part: DatePart, arg: string, argType: InferredType): string {
    const value = argType === 'date' || argType === 'timestamp' ? arg : this.cast(arg, 'timestamp', argType);
    return `CAST(EXTRACT(${part.toUpperCase()} FROM ${value}) AS ${this.castNames.integer})`;
  }

  aggregate(fn: AggregateFn, arg: string, distinct: boolean, argType: InferredType): string {
    const a = (fn === 'sum' || fn === 'avg') && argType === 'text' ? this.textToFloat(arg) : arg;
    return `${fn.toUpperCase()}(${distinct ? 'DISTINCT ' : ''}${a})`;
  }

  like(
    subject: string,
    pattern: string,
    negated: boolean,
    caseInsensitive: boolean,
    _literal: boolean,
  ): string {
    return `${subject} ${negated ? 'NOT ' : ''}${caseInsensitive ? 'ILIKE' : 'LIKE'} ${pattern}`;
  }

  likePatternValue(pattern: string, _caseInsensitive: boolean): string {
    return pattern;
  }

  /** Where NULLs go without a NULLS clause: 'smallest' (SQLite, MySQL) or 'largest' (PostgreSQL). */
  protected abstract readonly defaultNulls: 'smallest' | 'largest' | 'last';

  orderItem(sql: string, direction: 'asc' | 'desc', nulls: 'first' | 'last'): string {
    const dir = direction.toUpperCase();
    const natural =
      this.defaultNulls === 'last'
        ? 'last'
        : (this.defaultNulls === 'smallest') === (direction === 'asc')
          ? 'first'
          : 'last';
    return nulls === natural ? `${sql} ${dir}` : `${sql} ${dir} NULLS ${nulls.toUpperCase()}`;
  }

  limitClause(limit: number | null, offset: number | null): string {
    // A negative OFFSET is refused like any bad integer, not dropped because it is not positive.
    if (offset !== null) this.integer(offset);
    const parts: string[] = [];
    if (limit !== null) parts.push(`LIMIT ${this.integer(limit)}`);
    if (offset !== null && offset > 0) parts.push(`OFFSET ${this.integer(offset)}`);
    return parts.join(' ');
  }

  protected integer(n: number): string {
    if (!Number.isSafeInteger(n) || n < 0)
      throw this.unsupported(`a LIMIT/OFFSET of ${n}`, 'use a non-negative integer');
    return String(n);
  }

  setOperand(sql: string, _side: 'left' | 'right', _isSetOp: boolean): string {
    return `(${sql})`;
  }

  abstract argExtreme(col: string, key: string, which: 'max' | 'min', kind: InferredType): string;

  anyValue(col: string, kind: InferredType): string {
    if (kind === 'boolean') return `BOOL_OR(${col})`;
    return `MIN(${col})`;
  }

  unsupported(construct: string, hint = ''): PlanError {
    return unsupported(this.name, construct, hint);
  }
}
