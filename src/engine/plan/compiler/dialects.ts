/** The four dialects: each overrides only what its engine spells differently from BaseDialect. */
import type { Dialect as DialectName } from '../../datasources/schema';
import type { CastType } from '../ast';
import type { ScalarFunctionName } from '../functions';
import type { InferredType } from '../types';
import type { TypedValue } from './typed-value';
import { BaseDialect, type AggregateFn, type SqlDialect } from './dialect';

/** SQLite GLOB equivalent of a case-sensitive LIKE pattern. */
export function likeToGlob(pattern: string): string {
  return pattern.replace(/[*?[%_]/g, (c) => ({ '*': '[*]', '?': '[?]', '[': '[[]', '%': '*', _: '?' })[c]!);
}

export class SqliteDialect extends BaseDialect {
  readonly name = 'sqlite' as const;
  override readonly supportsSetOpAll = false;
  override readonly needsBareColumnRewrite = false;
  protected readonly defaultNulls = 'smallest' as const;
  protected readonly castNames: Record<CastType, string> = {
    integer: 'INTEGER',
    float: 'REAL',
    decimal: 'NUMERIC',
    text: 'TEXT',
    boolean: 'INTEGER',
    date: 'TEXT',
    timestamp: 'TEXT',
  };

  placeholder(_index: number, v: TypedValue): string {
    // better-sqlite3 binds every JS number as REAL, so integers are cast back (7 / 2 must be 3).
    return v.type === 'integer' || v.type === 'int32' || v.type === 'boolean' ? 'CAST(? AS INTEGER)' : '?';
  }

  override paramValue(v: TypedValue): string | number | boolean {
    // SQLite has no boolean: true is 1.
    return typeof v.value === 'boolean' ? (v.value ? 1 : 0) : v.value;
  }

  override inlineLiteral(v: TypedValue): string {
    if (typeof v.value === 'boolean') return v.value ? '1' : '0';
    return super.inlineLiteral(v);
  }

  override booleanConstant(v: boolean): string {
    return v ? '1' : '0';
  }

  override cast(sql: string, to: CastType, from: InferredType): string {
    if (to === 'boolean') throw this.unsupported('CAST to boolean', 'SQLite has no boolean type');
    if (to === 'date') return `DATE(${sql})`;
    if (to === 'timestamp') return `DATETIME(${sql})`;
    return super.cast(sql, to, from);
  }

  protected override datePart(
    part: 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second',
    arg: string,
  ): string {
    const fmt = { year: '%Y', month: '%m', day: '%d', hour: '%H', minute: '%M', second: '%S' }[part];
    return `CAST(STRFTIME('${fmt}', ${arg}) AS INTEGER)`;
  }

  override func(name: ScalarFunctionName, args: string[], argTypes: InferredType[]): string {
    if (name === 'current_date') return `DATE('now')`;
    return super.func(name, args, argTypes);
  }

  override aggregate(fn: AggregateFn, arg: string, distinct: boolean): string {
    return `${fn.toUpperCase()}(${distinct ? 'DISTINCT ' : ''}${arg})`;
  }

  override like(
    subject: string,
    pattern: string,
    negated: boolean,
    caseInsensitive: boolean,
    literal: boolean,
  ): string {
    if (caseInsensitive) return `${subject} ${negated ? 'NOT ' : ''}LIKE ${pattern}`;
    if (!literal) throw this.unsupported('a case-sensitive LIKE with a computed pattern');
    return `${subject} ${negated ? 'NOT ' : ''}GLOB ${pattern}`;
  }

  override likePatternValue(pattern: string, caseInsensitive: boolean): string {
    return caseInsensitive ? pattern : likeToGlob(pattern);
  }

  override limitClause(limit: number | null, offset: number | null): string {
    if (limit === null && offset !== null && offset > 0) return `LIMIT -1 OFFSET ${this.integer(offset)}`;
    return super.limitClause(limit, offset);
  }

  override setOperand(sql: string, side: 'left' | 'right', isSetOp: boolean): string {
    // SQLite allows no parentheses around compound members; its operators are left-associative.
    if (side === 'left' && isSetOp) return sql;
    return `SELECT * FROM (${sql})`;
  }

  argExtreme(col: string): string {
    return col;
  }

  override anyValue(col: string): string {
    return col;
  }
}

export class PostgresDialect extends BaseDialect {
  readonly name = 'postgres' as const;
  protected readonly defaultNulls = 'largest' as const;
  protected readonly castNames: Record<CastType, string> = {
    integer: 'BIGINT',
    float: 'DOUBLE PRECISION',
    decimal: 'NUMERIC',
    text: 'TEXT',
    boolean: 'BOOLEAN',
    date: 'DATE',
    timestamp: 'TIMESTAMP',
  };

  placeholder(index: number, v: TypedValue): string {
    // An explicit type: PostgreSQL would otherwise infer the parameter's type from its context.
    return `$${index}::${v.type === 'int32' ? 'integer' : this.castNames[v.type].toLowerCase()}`;
  }

  override integerArgument(sql: string): string {
    // substr(text, integer, integer), round(numeric, integer), ntile(integer), lag(x, integer):
    // a BIGINT argument (a bound integer, integer arithmetic) matches none of them.
    return `CAST(${sql} AS INTEGER)`;
  }

  override textToFloat(sql: string): string {
    return `CASE WHEN ${sql} ~ '^\\s*[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?\\s*$' THEN CAST(${sql} AS DOUBLE PRECISION) WHEN ${sql} IS NULL THEN NULL ELSE 0 END`;
  }

  override func(name: ScalarFunctionName, args: string[], argTypes: InferredType[]): string {
    if (name === 'round' && args.length === 2) {
      return `CAST(ROUND(CAST(${args[0]} AS NUMERIC), ${args[1]}) AS DOUBLE PRECISION)`;
    }
    if (name === 'length' && argTypes[0] !== 'text') return `LENGTH(CAST(${args[0]} AS TEXT))`;
    return super.func(name, args, argTypes);
  }

  override aggregate(fn: AggregateFn, arg: string, distinct: boolean, argType: InferredType): string {
    const plain = super.aggregate(fn, arg, distinct, argType);
    // SUM of integers is NUMERIC and AVG is NUMERIC here; SQLite gives an integer and a REAL.
    if (fn === 'sum' && argType === 'integer') return `CAST(${plain} AS BIGINT)`;
    if (fn === 'avg') return `CAST(${plain} AS DOUBLE PRECISION)`;
    return plain;
  }

  override likePatternValue(pattern: string): string {
    return pattern.replace(/\\/g, '\\\\'); // backslash is PostgreSQL's default LIKE escape
  }

  argExtreme(col: string, key: string, which: 'max' | 'min'): string {
    return `(ARRAY_AGG(${col} ORDER BY ${key} ${which === 'max' ? 'DESC' : 'ASC'}) FILTER (WHERE ${key} IS NOT NULL))[1]`;
  }
}

export class DuckDbDialect extends BaseDialect {
  readonly name = 'duckdb' as const;
  protected readonly defaultNulls = 'last' as const;
  protected readonly castNames: Record<CastType, string> = {
    integer: 'BIGINT',
    float: 'DOUBLE',
    decimal: 'DECIMAL(38,10)',
    text: 'VARCHAR',
    boolean: 'BOOLEAN',
    date: 'DATE',
    timestamp: 'TIMESTAMP',
  };

  placeholder(index: number, v: TypedValue): string {
    return `CAST($${index} AS ${v.type === 'int32' ? 'INTEGER' : this.castNames[v.type]})`;
  }

  override intDivide(l: string, r: string): string {
    return `${l} // ${r}`;
  }

  override integerArgument(sql: string): string {
    // round(DOUBLE, INTEGER) has no BIGINT form; bound integers are BIGINT here.
    return `CAST(${sql} AS INTEGER)`;
  }

  override textToFloat(sql: string): string {
    return `CASE WHEN ${sql} IS NULL THEN NULL ELSE COALESCE(TRY_CAST(${sql} AS DOUBLE), 0) END`;
  }

  override aggregate(fn: AggregateFn, arg: string, distinct: boolean, argType: InferredType): string {
    const plain = super.aggregate(fn, arg, distinct, argType);
    return fn === 'sum' && argType === 'integer' ? `CAST(${plain} AS BIGINT)` : plain;
  }

  argExtreme(col: string, key: string, which: 'max' | 'min'): string {
    return `${which === 'max' ? 'ARG_MAX_NULL' : 'ARG_MIN_NULL'}(${col}, ${key})`;
  }
}

export class MysqlDialect extends BaseDialect {
  readonly name = 'mysql' as const;
  override readonly supportsFullJoin = false;
  protected readonly defaultNulls = 'smallest' as const;
  protected readonly castNames: Record<CastType, string> = {
    integer: 'SIGNED',
    float: 'DOUBLE',
    decimal: 'DECIMAL(65,10)',
    text: 'CHAR',
    boolean: 'SIGNED',
    date: 'DATE',
    timestamp: 'DATETIME',
  };

  override quote(identifier: string): string {
    if (identifier.includes('\u0000')) throw this.unsupported('an identifier containing a NUL character');
    return `\`${identifier.replace(/`/g, '``')}\``;
  }

  placeholder(): string {
    return '?';
  }

  protected override stringLiteral(s: string): string {
    if (s.includes('\u0000')) throw this.unsupported('a string containing a NUL character');
    return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  }

  override concat(parts: string[]): string {
    return `CONCAT(${parts.join(', ')})`;
  }

  override divide(l: string, r: string): string {
    // MySQL divides exactly to 4 extra digits; SQLite divides in double precision.
    return `CAST(${l} AS DOUBLE) / ${r}`;
  }

  override intDivide(l: string, r: string): string {
    return `${l} DIV ${r}`;
  }

  override cast(sql: string, to: CastType, from: InferredType): string {
    if (to === 'boolean') throw this.unsupported('CAST to boolean');
    return super.cast(sql, to, from);
  }

  protected override datePart(
    part: 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second',
    arg: string,
  ): string {
    return `${part.toUpperCase()}(${arg})`;
  }

  override func(name: ScalarFunctionName, args: string[], argTypes: InferredType[]): string {
    if (name === 'length') return `CHAR_LENGTH(${args[0]})`;
    return super.func(name, args, argTypes);
  }

  override aggregate(fn: AggregateFn, arg: string, distinct: boolean, argType: InferredType): string {
    const d = distinct ? 'DISTINCT ' : '';
    if (fn === 'avg') return `AVG(${d}CAST(${arg} AS DOUBLE))`;
    if (fn === 'sum' && argType === 'integer') return `CAST(SUM(${d}${arg}) AS SIGNED)`;
    if (fn === 'sum' && argType === 'text') return `SUM(${d}CAST(${arg} AS DOUBLE))`;
    return `${fn.toUpperCase()}(${d}${arg})`;
  }

  override like(subject: string, pattern: string, negated: boolean, caseInsensitive: boolean): string {
    const not = negated ? 'NOT ' : '';
    // The column's collation decides case in MySQL; say it explicitly either way.
    return caseInsensitive
      ? `LOWER(${subject}) ${not}LIKE LOWER(${pattern})`
      : `${subject} ${not}LIKE BINARY ${pattern}`;
  }

  override likePatternValue(pattern: string): string {
    return pattern.replace(/\\/g, '\\\\');
  }

  override orderItem(sql: string, direction: 'asc' | 'desc', nulls: 'first' | 'last'): string {
    const dir = direction.toUpperCase();
    const natural = direction === 'asc' ? 'first' : 'last';
    if (nulls === natural) return `${sql} ${dir}`;
    return `(${sql}) IS NULL ${nulls === 'last' ? 'ASC' : 'DESC'}, ${sql} ${dir}`;
  }

  override limitClause(limit: number | null, offset: number | null): string {
    if (limit === null && offset !== null && offset > 0)
      return `LIMIT 18446744073709551615 OFFSET ${this.integer(offset)}`;
    return super.limitClause(limit, offset);
  }

  argExtreme(col: string, key: string, which: 'max' | 'min', kind: InferredType): string {
    const picked = `SUBSTRING_INDEX(GROUP_CONCAT(CASE WHEN ${key} IS NOT NULL THEN ${col} END ORDER BY ${key} ${
      which === 'max' ? 'DESC' : 'ASC'
    } SEPARATOR 0x1f), 0x1f, 1)`;
    if (kind === 'integer') return `CAST(${picked} AS SIGNED)`;
    if (kind === 'float' || kind === 'decimal') return `CAST(${picked} AS DOUBLE)`;
    return picked;
  }
}

const DIALECT_CLASSES: Record<DialectName, () => SqlDialect> = {
  sqlite: () => new SqliteDialect(),
  postgres: () => new PostgresDialect(),
  duckdb: () => new DuckDbDialect(),
  mysql: () => new MysqlDialect(),
};

export function dialectFor(name: DialectName): SqlDialect {
  const make = DIALECT_CLASSES[name];
  if (!make) throw new Error(`Unknown dialect ${String(name)}`);
  return make();
}
