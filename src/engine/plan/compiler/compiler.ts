/**
 * The plan compiler: ONE visitor over plan nodes (a `Record<kind, ...>` table, so a new node kind
 * does not compile until it is handled) that writes SQL through a `Dialect` object. Dialects
 * (dialects/*.ts) override only what differs between engines.
 *
 * Meaning is SQLite's where engines disagree, because plans are defined that way (and Spider's
 * gold results are SQLite's): integer / integer truncates; text compared with a number compares as
 * text; LIKE is ASCII case-insensitive unless `case_insensitive` is false; NULLs sort as the
 * smallest value unless `nulls` says otherwise; a bare column beside exactly one MIN/MAX takes the
 * value from that row. The compiler uses column types from the schema to keep that meaning.
 *
 * Every value becomes a bound parameter (binder.ts, the one place that turns a value into SQL); the
 * same walk in display mode renders the display SQL.
 */
import type { Dialect as DialectName, SchemaSnapshot } from '../../datasources/schema';
import { PlanError } from '../errors';
import { scalarSignature, windowSignature } from '../functions';
import {
  cteScope,
  inferType,
  isNumericType,
  isTextType,
  literalType,
  outputColumns,
  relationsOf,
  type InferredType,
} from '../inference';
import { Scope, expressionKey } from '../scope';
import { containsAggregate, walkExpr } from '../walk';
import type * as T from '../types';
import type { SqlDialect } from './dialect';
import type { TypedValue } from './typed-value';
import { totalOrder } from './order';
import { Binder } from './binder';

export interface CompileOptions {
  /** Most rows the caller will read; the SQL is bounded to rowCap + 1 rows. Null: no cap. */
  readonly rowCap?: number | null;
  /** Column types and canonical spellings; without it names pass through and types are unknown. */
  readonly schema?: SchemaSnapshot | null;
  /** Values of `param` nodes, by name. */
  readonly params?: Readonly<Record<string, string | number | boolean | null>>;
}

export interface CompiledSql {
  /** SQL in the dialect with its own placeholders ($1 for postgres and duckdb, ? otherwise). */
  readonly sql: string;
  readonly params: readonly (string | number | boolean)[];
  readonly dialect: DialectName;
  /** The same statement with values inlined as escaped literals, for display only. */
  readonly displaySql: string;
  /** The row cap that bounded the SQL; null when the plan's own LIMIT was already within it. */
  readonly rowCapApplied: number | null;
}

/** A literal value with the type it is bound as. */
type Handlers = { [K in T.ExprKind]: (e: T.ExprOf<K>, s: Scope) => string };

export class PlanCompiler {
  private readonly binder: Binder;

  constructor(
    private readonly d: SqlDialect,
    private readonly options: CompileOptions,
    display: boolean,
  ) {
    this.binder = new Binder(d, display);
  }

  static compile(plan: T.Query, d: SqlDialect, options: CompileOptions = {}): CompiledSql {
    const cap = options.rowCap ?? null;
    if (cap !== null && (!Number.isInteger(cap) || cap < 0)) {
      throw new PlanError('PLAN_MALFORMED', `rowCap must be a non-negative integer, got ${cap}`);
    }
    let top = plan;
    let rowCapApplied: number | null = null;
    if (cap !== null && (plan.limit === null || plan.limit > cap)) {
      top = { ...plan, limit: cap + 1 };
      rowCapApplied = cap;
    }
    const bound = new PlanCompiler(d, options, false);
    const sql = bound.query(top, Scope.root(options.schema ?? null));
    const display = new PlanCompiler(d, options, true).query(top, Scope.root(options.schema ?? null));
    return { sql, params: bound.binder.params, dialect: d.name, displaySql: display, rowCapApplied };
  }

  // ---------- queries ----------

  query(q: T.Query, outer: Scope): string {
    const scope = cteScope(q.with, outer);
    const parts: string[] = [];
    if (q.with.length) {
      let s = outer;
      const ctes = q.with.map((c) => {
        const text = `${this.d.quote(c.name)} AS (${this.query(c.query, s)})`;
        s = cteScope([c], s);
        return text;
      });
      parts.push(`WITH ${ctes.join(', ')}`);
    }
    // The ORDER BY with tie-breakers, so every engine returns the same rows in the same order.
    const { body, orderBy } = totalOrder(q, outer);
    parts.push(this.body(body, scope, orderBy.length > 0 || q.limit !== null || q.offset !== null));
    if (orderBy.length) parts.push(`ORDER BY ${this.orderBy(orderBy, body, scope)}`);
    const limit = this.d.limitClause(q.limit, q.offset);
    if (limit) parts.push(limit);
    return parts.join(' ');
  }

  private body(b: T.Body, scope: Scope, _hasTail: boolean): string {
    switch (b.kind) {
      case 'select':
        return this.select(b, scope);
      case 'query':
        return this.query(b, scope);
      case 'set_op':
        return this.setOp(b, scope);
    }
  }

  private setOp(b: T.SetOp, scope: Scope): string {
    if (b.all && b.op !== 'union' && !this.d.supportsSetOpAll) {
      throw this.d.unsupported(`${b.op.toUpperCase()} ALL`);
    }
    const op = `${b.op.toUpperCase()}${b.all ? ' ALL' : ''}`;
    return `${this.setOperand(b.left, scope, 'left')} ${op} ${this.setOperand(b.right, scope, 'right')}`;
  }

  private setOperand(b: T.Body, scope: Scope, side: 'left' | 'right'): string {
    if (b.kind === 'select') return this.select(b, scope);
    const needsWrap =
      b.kind === 'query' ? b.with.length || b.order_by.length || b.limit !== null || b.offset !== null : true;
    const inner = b.kind === 'query' ? this.query(b, scope) : this.setOp(b, scope);
    if (b.kind === 'query' && !needsWrap) return this.setOperand(b.body, scope, side);
    return this.d.setOperand(inner, side, b.kind === 'set_op');
  }

  private select(sel: T.Select, outer: Scope): string {
    const saved = this.grouping;
    this.grouping = null;
    try {
      return this.selectInner(sel, outer);
    } finally {
      this.grouping = saved;
    }
  }

  private selectInner(sel: T.Select, outer: Scope): string {
    const scope = outer.child(relationsOf(sel.from, outer));
    const grouping = this.groupingContext(sel, scope);
    const cols = sel.columns.map((it) => {
      const expr = grouping ? this.ungrouped(it.expr, grouping, scope) : this.expr(it.expr, scope);
      return it.alias !== null ? `${expr} AS ${this.d.quote(it.alias)}` : expr;
    });
    const parts = [`SELECT ${sel.distinct ? 'DISTINCT ' : ''}${cols.join(', ')}`];
    if (sel.from) parts.push(`FROM ${this.from(sel.from, outer)}`);
    if (sel.where) parts.push(`WHERE ${this.expr(sel.where, scope)}`);
    if (sel.group_by.length)
      parts.push(`GROUP BY ${sel.group_by.map((g) => this.expr(g, scope)).join(', ')}`);
    if (sel.having) {
      parts.push(
        `HAVING ${grouping ? this.ungrouped(sel.having, grouping, scope) : this.expr(sel.having, scope)}`,
      );
    }
    return parts.join(' ');
  }

  private from(f: T.From, scope: Scope): string {
    switch (f.kind) {
      case 'table': {
        const cte = scope.findCte(f.name);
        const name = cte ? cte.name : (scope.findTable(f.name)?.name ?? f.name);
        const table = cte
          ? this.d.quote(name)
          : this.d.quoteTable(name, scope.findTable(f.name)?.schema ?? null);
        return f.alias !== null ? `${table} AS ${this.d.quote(f.alias)}` : table;
      }
      case 'derived':
        return `(${this.query(f.query, scope)}) AS ${this.d.quote(f.alias)}`;
      case 'join': {
        if (f.join_type === 'full' && !this.d.supportsFullJoin) throw this.d.unsupported('FULL OUTER JOIN');
        const left = this.from(f.left, scope);
        const right = f.right.kind === 'join' ? `(${this.from(f.right, scope)})` : this.from(f.right, scope);
        const kw = {
          inner: 'JOIN',
          left: 'LEFT JOIN',
          right: 'RIGHT JOIN',
          full: 'FULL JOIN',
          cross: 'CROSS JOIN',
        }[f.join_type];
        if (f.join_type === 'cross' || f.on === null) {
          if (f.join_type !== 'cross' && f.join_type !== 'inner') {
            throw new PlanError('PLAN_MALFORMED', `A ${f.join_type} join needs an ON condition`);
          }
          return `${left} CROSS JOIN ${right}`;
        }
        const joinScope = scope.child([...relationsOf(f.left, scope), ...relationsOf(f.right, scope)]);
        return `${left} ${kw} ${right} ON ${this.expr(f.on, joinScope)}`;
      }
    }
  }

  private orderBy(items: readonly T.OrderItem[], body: T.Body, outer: Scope): string {
    const sel = body.kind === 'select' ? body : null;
    const scope = sel ? outer.child(relationsOf(sel.from, outer)) : outer;
    const outputs = sel ? sel.columns.map((c) => c.alias).filter((a): a is string => a !== null) : [];
    const grouping = sel ? this.groupingContext(sel, scope) : null;
    return items
      .map((o) => {
        let sql: string;
        const e = o.expr;
        if (e.kind === 'column' && !sel) {
          sql = this.d.quote(this.outputName(e.name, body, outer));
        } else if (
          e.kind === 'column' &&
          e.table === null &&
          outputs.some((a) => a.toLowerCase() === e.name.toLowerCase())
        ) {
          sql = this.d.quote(outputs.find((a) => a.toLowerCase() === e.name.toLowerCase())!);
        } else {
          sql = grouping ? this.ungrouped(e, grouping, scope) : this.expr(e, scope);
        }
        return this.d.orderItem(sql, o.direction, o.nulls ?? (o.direction === 'asc' ? 'first' : 'last'));
      })
      .join(', ');
  }

  /** Output column name of a set operation (ORDER BY there names output columns). */
  private outputName(name: string, body: T.Body, scope: Scope): string {
    const cols = outputColumns(
      { kind: 'query', with: [], body, order_by: [], limit: null, offset: null },
      scope,
    );
    return cols?.find((c) => c.name.toLowerCase() === name.toLowerCase())?.name ?? name;
  }

  // ---------- grouping (bare columns beside aggregates) ----------

  private groupingContext(sel: T.Select, scope: Scope): Grouping | null {
    if (!this.d.needsBareColumnRewrite) return null;
    const hasAgg =
      sel.group_by.length > 0 ||
      sel.columns.some((c) => containsAggregate(c.expr)) ||
      (sel.having !== null && containsAggregate(sel.having));
    if (!hasAgg) return null;
    const minMax: T.Aggregate[] = [];
    for (const c of sel.columns) {
      walkExpr(c.expr, (x) => {
        if (x.kind === 'aggregate' && (x.fn === 'min' || x.fn === 'max') && x.arg) minMax.push(x);
        return x.kind !== 'window';
      });
    }
    const keys = new Set(sel.group_by.map((g) => expressionKey(g, scope)));
    return { keys, selector: minMax.length === 1 ? minMax[0]! : null };
  }

  /** Compiles an expression of a grouped select, rewriting bare columns so every engine accepts them. */
  private ungrouped(e: T.Expr, g: Grouping, scope: Scope): string {
    const prev = this.grouping;
    this.grouping = { ...g, scope };
    try {
      return this.expr(e, scope);
    } finally {
      this.grouping = prev;
    }
  }

  // ---------- expressions ----------

  /** Set while compiling the select list, HAVING or ORDER BY of a grouped select that needs rewriting. */
  private grouping: (Grouping & { scope: Scope }) | null = null;

  expr(e: T.Expr, scope: Scope): string {
    const g = this.grouping;
    if (g && g.scope === scope) {
      const grouped = g.keys.has(expressionKey(e, scope));
      if (!grouped && e.kind === 'column') {
        const r = scope.resolveColumn(e.table, e.name);
        // An outer query's column is a constant here.
        if (!(r.ok && r.depth > 0)) return this.bareColumn(e, scope);
      }
      if (grouped || e.kind === 'aggregate' || e.kind === 'window') {
        // Inside an aggregate, a window or a grouped expression, columns are ordinary again.
        this.grouping = null;
        try {
          return this.dispatch(e, scope);
        } finally {
          this.grouping = g;
        }
      }
    }
    return this.dispatch(e, scope);
  }

  private dispatch(e: T.Expr, scope: Scope): string {
    return (this.handlers[e.kind] as (x: T.Expr, s: Scope) => string)(e, scope);
  }

  private bareColumn(c: T.Column, scope: Scope): string {
    const col = this.column(c, scope);
    const sel = this.grouping?.selector;
    if (sel && sel.arg) {
      const g = this.grouping;
      this.grouping = null;
      const key = this.expr(sel.arg, scope);
      this.grouping = g;
      const kind = inferType(c, scope);
      return this.d.argExtreme(col, key, sel.fn === 'max' ? 'max' : 'min', kind);
    }
    return this.d.anyValue(col, inferType(c, scope));
  }

  private readonly handlers: Handlers = {
    column: (e, s) => this.column(e, s),
    literal: (e) => this.literal(e.value, e.type),
    param: (e) => {
      const values = this.options.params ?? {};
      if (!(e.name in values)) {
        throw new PlanError('PLAN_PARAM_MISSING', `No value for parameter "${e.name}"`, { param: e.name });
      }
      return this.literal(values[e.name] ?? null, null);
    },
    negate: (e, s) => `-${this.wrap(e.arg, s)}`,
    arith: (e, s) => this.arith(e, s),
    concat: (e, s) =>
      this.d.concat(
        e.args.map((a) => {
          const sql = this.wrap(a, s);
          // PostgreSQL has no || between two non-text values.
          return this.d.name === 'postgres' && !isTextType(inferType(a, s))
            ? this.d.cast(sql, 'text', 'unknown')
            : sql;
        }),
      ),
    compare: (e, s) => {
      const [l, r] = this.comparable(e.left, e.right, s, e.op === '=' || e.op === '<>');
      return `${l} ${e.op} ${r}`;
    },
    and: (e, s) =>
      e.args.length ? e.args.map((a) => this.wrap(a, s)).join(' AND ') : this.d.booleanConstant(true),
    or: (e, s) =>
      e.args.length ? e.args.map((a) => this.wrap(a, s)).join(' OR ') : this.d.booleanConstant(false),
    not: (e, s) => `NOT ${this.wrap(e.arg, s)}`,
    in_list: (e, s) => {
      if (e.values.length === 0) return this.d.booleanConstant(e.negated);
      const left = this.wrap(e.expr, s);
      const values = e.values.map((v) => this.against(v, e.expr, s, true));
      return `${left} ${e.negated ? 'NOT IN' : 'IN'} (${values.join(', ')})`;
    },
    in_query: (e, s) => {
      const sub = outputColumns(e.query, s)?.[0]?.kind ?? 'unknown';
      const left = this.castForCompare(this.wrap(e.expr, s), inferType(e.expr, s), sub, true);
      return `${left} ${e.negated ? 'NOT IN' : 'IN'} (${this.query(e.query, s)})`;
    },
    exists: (e, s) => `${e.negated ? 'NOT ' : ''}EXISTS (${this.query(e.query, s)})`,
    between: (e, s) => {
      const x = this.wrap(e.expr, s);
      const lo = this.against(e.low, e.expr, s, false);
      const hi = this.against(e.high, e.expr, s, false);
      return `${x} ${e.negated ? 'NOT BETWEEN' : 'BETWEEN'} ${lo} AND ${hi}`;
    },
    like: (e, s) => this.like(e, s),
    is_null: (e, s) => `${this.wrap(e.expr, s)} IS ${e.negated ? 'NOT ' : ''}NULL`,
    case: (e, s) => {
      const parts = ['CASE'];
      if (e.operand) parts.push(this.expr(e.operand, s));
      for (const w of e.whens) {
        const when = e.operand ? this.against(w.when, e.operand, s, true) : this.expr(w.when, s);
        parts.push(`WHEN ${when} THEN ${this.expr(w.then, s)}`);
      }
      if (e.else) parts.push(`ELSE ${this.expr(e.else, s)}`);
      parts.push('END');
      return parts.join(' ');
    },
    cast: (e, s) => this.d.cast(this.expr(e.expr, s), e.to, inferType(e.expr, s)),
    func: (e, s) => {
      // A name off the allow-list (a plan that skipped the shape check) is refused, never spelt.
      const sig = scalarSignature(e.name);
      return this.d.func(
        e.name,
        this.args(e.args, s, sig.integerArgs),
        e.args.map((a) => inferType(a, s)),
      );
    },
    aggregate: (e, s) => {
      if (e.arg === null) {
        if (e.fn !== 'count') throw new PlanError('PLAN_MALFORMED', `${e.fn} needs an argument`);
        return 'COUNT(*)';
      }
      const argType = inferType(e.arg, s);
      return this.d.aggregate(e.fn, this.expr(e.arg, s), e.distinct, argType);
    },
    window: (e, s) => this.window(e, s),
    subquery: (e, s) => `(${this.query(e.query, s)})`,
    star: (e, s) => {
      if (e.table === null) return '*';
      const rel = s.findRelation(e.table);
      return `${this.d.quote(rel?.alias ?? e.table)}.*`;
    },
  };

  private column(e: T.Column, scope: Scope): string {
    const r = scope.resolveColumn(e.table, e.name);
    const name = r.ok && r.column ? r.column.name : e.name;
    if (e.table === null) return this.d.quote(name);
    const table = r.ok ? r.relation.alias : e.table;
    return `${this.d.quote(table)}.${this.d.quote(name)}`;
  }

  /** Parenthesises anything that is not atomic, so precedence never depends on the dialect. */
  private wrap(e: T.Expr, s: Scope): string {
    const sql = this.expr(e, s);
    const atomic = [
      'column',
      'literal',
      'param',
      'func',
      'aggregate',
      'window',
      'subquery',
      'cast',
      'case',
      'star',
    ];
    return atomic.includes(e.kind) ? sql : `(${sql})`;
  }

  private arith(e: T.Arith, s: Scope): string {
    const lt = inferType(e.left, s);
    const rt = inferType(e.right, s);
    const l = this.numericOperand(this.wrap(e.left, s), lt);
    const r = this.numericOperand(this.wrap(e.right, s), rt);
    if (e.op === '/') {
      if (lt === 'integer' && rt === 'integer') return this.d.intDivide(l, r);
      return this.d.divide(l, r);
    }
    return `${l} ${e.op} ${r}`;
  }

  private numericOperand(sql: string, t: InferredType): string {
    return isTextType(t) && this.d.name !== 'sqlite' ? this.d.textToFloat(sql) : sql;
  }

  private like(e: T.Like, s: Scope): string {
    let patternSql: string;
    const p = e.pattern;
    if (p.kind === 'literal' && typeof p.value === 'string') {
      patternSql = this.bind({ value: this.d.likePatternValue(p.value, e.case_insensitive), type: 'text' });
    } else {
      patternSql = this.wrap(p, s);
    }
    const subject = isTextType(inferType(e.expr, s))
      ? this.wrap(e.expr, s)
      : this.d.cast(this.wrap(e.expr, s), 'text', 'unknown');
    return this.d.like(subject, patternSql, e.negated, e.case_insensitive, p.kind === 'literal');
  }

  /** Function arguments, those at `integerArgs` positions as the dialect's functions want integers. */
  private args(args: readonly T.Expr[], s: Scope, integerArgs: readonly number[] = []): string[] {
    return args.map((a, i) => {
      if (!integerArgs.includes(i)) return this.expr(a, s);
      const lit = asLiteral(a, this.options.params);
      if (
        typeof lit?.value === 'number' &&
        Number.isSafeInteger(lit.value) &&
        Math.abs(lit.value) < 2 ** 31
      ) {
        return this.bind({ value: lit.value, type: 'int32' });
      }
      return this.d.integerArgument(this.expr(a, s));
    });
  }

  private window(e: T.Window, s: Scope): string {
    const sig = windowSignature(e.fn);
    const args = this.args(e.args, s, sig.integerArgs);
    let call: string;
    if (e.fn === 'count' && args.length === 0) call = 'COUNT(*)';
    else if (sig.returns === 'aggregate' || e.fn === 'count') {
      call = this.d.aggregate(
        e.fn as T.AggregateFn,
        args[0] ?? '*',
        false,
        e.args[0] ? inferType(e.args[0], s) : 'unknown',
      );
    } else call = `${e.fn.toUpperCase()}(${args.join(', ')})`;
    const over: string[] = [];
    if (e.partition_by.length)
      over.push(`PARTITION BY ${e.partition_by.map((p) => this.expr(p, s)).join(', ')}`);
    if (e.order_by.length) {
      over.push(
        `ORDER BY ${e.order_by
          .map((o) =>
            this.d.orderItem(
              this.expr(o.expr, s),
              o.direction,
              o.nulls ?? (o.direction === 'asc' ? 'first' : 'last'),
            ),
          )
          .join(', ')}`,
      );
    }
    if (e.frame)
      over.push(
        `${e.frame.unit.toUpperCase()} BETWEEN ${this.bound(e.frame.start)} AND ${this.bound(e.frame.end)}`,
      );
    return `${call} OVER (${over.join(' ')})`;
  }

  private bound(b: T.FrameBound): string {
    const n = (): number => {
      if (b.offset === null || !Number.isInteger(b.offset) || b.offset < 0) {
        throw new PlanError('PLAN_MALFORMED', `Frame bound ${b.bound} needs a non-negative integer offset`);
      }
      return b.offset;
    };
    switch (b.bound) {
      case 'unbounded_preceding':
        return 'UNBOUNDED PRECEDING';
      case 'unbounded_following':
        return 'UNBOUNDED FOLLOWING';
      case 'current_row':
        return 'CURRENT ROW';
      case 'preceding':
        return `${n()} PRECEDING`;
      case 'following':
        return `${n()} FOLLOWING`;
    }
  }

  // ---------- literals and comparisons ----------

  /**
   * Compiles both sides of a comparison so that it means what SQLite means: a literal takes the
   * type of the column it meets (text column vs 150 compares with '150'; numeric column vs '150'
   * compares with 150); two non-literals of text and number types are made comparable explicitly.
   */
  private comparable(left: T.Expr, right: T.Expr, s: Scope, equality: boolean): [string, string] {
    const lt = inferType(left, s);
    const rt = inferType(right, s);
    const lLit = asLiteral(left, this.options.params);
    const rLit = asLiteral(right, this.options.params);
    if (rLit && !lLit) return [this.wrap(left, s), this.literalAs(rLit, lt)];
    if (lLit && !rLit) return [this.literalAs(lLit, rt), this.wrap(right, s)];
    const l = this.wrap(left, s);
    const r = this.wrap(right, s);
    if (lLit && rLit) return [l, r];
    return [this.castForCompare(l, lt, rt, equality), this.castForCompare(r, rt, lt, equality)];
  }

  /** Compiles `value`, which is compared with `subject` (compiled elsewhere, once), keeping SQLite's meaning. */
  private against(value: T.Expr, subject: T.Expr, s: Scope, equality: boolean): string {
    const target = inferType(subject, s);
    const lit = asLiteral(value, this.options.params);
    if (lit) return this.literalAs(lit, target);
    return this.castForCompare(this.wrap(value, s), inferType(value, s), target, equality);
  }

  private castForCompare(sql: string, own: InferredType, other: InferredType, equality: boolean): string {
    if (this.d.name === 'sqlite') return sql;
    if (equality) {
      // Equality of a number and numeric text: compare as text (never fails on non-numeric text).
      if (isNumericType(own) && isTextType(other)) return this.d.cast(sql, 'text', own);
      return sql;
    }
    if (isTextType(own) && isNumericType(other)) return this.d.textToFloat(sql);
    return sql;
  }

  private literalAs(v: LiteralValue, target: InferredType): string {
    if (v.value === null) return 'NULL';
    const tv = coerceLiteral(v, target);
    return this.bind(tv);
  }

  private literal(value: string | number | boolean | null, hint: T.Literal['type']): string {
    if (value === null) return 'NULL';
    const t = literalType(value, hint);
    return this.bind(coerceLiteral({ value, type: hint }, t));
  }

  private bind(v: TypedValue): string {
    return this.binder.bind(v);
  }
}

interface Grouping {
  readonly keys: ReadonlySet<string>;
  /** The single MIN/MAX aggregate whose row bare columns come from (SQLite's rule), if any. */
  readonly selector: T.Aggregate | null;
}

interface LiteralValue {
  readonly value: string | number | boolean | null;
  readonly type: T.Literal['type'];
}

function asLiteral(e: T.Expr, params: CompileOptions['params']): LiteralValue | null {
  if (e.kind === 'literal') return { value: e.value, type: e.type };
  if (e.kind === 'param' && params && e.name in params) return { value: params[e.name] ?? null, type: null };
  if (e.kind === 'negate' && e.arg.kind === 'literal' && typeof e.arg.value === 'number') {
    return { value: -e.arg.value, type: e.arg.type };
  }
  return null;
}

const NUMERIC_TEXT = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/** SQLite's rendering of a REAL as text ('150.0'), used when a float literal meets a text column. */
function numberToText(n: number, type: T.Literal['type']): string {
  if (Number.isInteger(n) && type === 'float') return `${n}.0`;
  return String(n);
}

/** Converts a literal to the type of what it is compared with, as SQLite's affinity rules do. */
export function coerceLiteral(v: LiteralValue, target: InferredType): TypedValue {
  const value = v.value as string | number | boolean;
  const own = literalType(value, v.type);
  if (target === 'text' && typeof value === 'number')
    return { value: numberToText(value, v.type), type: 'text' };
  if (isNumericType(target) && typeof value === 'string' && NUMERIC_TEXT.test(value)) {
    const n = Number(value);
    return { value: n, type: Number.isInteger(n) && !/[.eE]/.test(value) ? 'integer' : 'float' };
  }
  if (target === 'boolean' && typeof value === 'number' && (value === 0 || value === 1)) {
    return { value: value === 1, type: 'boolean' };
  }
  if ((target === 'date' || target === 'timestamp') && typeof value === 'string')
    return { value, type: target };
  if (typeof value === 'boolean') return { value, type: 'boolean' };
  if (typeof value === 'number')
    return { value, type: own === 'float' || !Number.isInteger(value) ? 'float' : 'integer' };
  if (own === 'date' || own === 'timestamp') return { value, type: own };
  return { value, type: 'text' };
}
