/**
 * The plan validator: checks a plan's shape against the JSON Schema, then resolves every table,
 * alias and column against the datasource's schema, checks grouping, joins, functions, LIMIT
 * bounds and the caller's role policies. Every problem has a stable code, a path into the plan
 * (JSON Pointer) and a message written so that a model can repair the plan from it.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import { closest, distance } from 'fastest-levenshtein';
import type { SchemaSnapshot } from '../../datasources/schema';
import { FUNCTION_SIGNATURES } from '../functions';
import { buildPlanJsonSchema } from '../generate';
import { cteScope, inferType, isNumericType, outputColumns, relationsOf } from '../inference';
import { Scope, type Relation } from '../scope';
import { containsAggregate, walkExpr } from '../walk';
import type * as T from '../types';
import { PLAN_PROBLEM_CODES } from '../../errors/error-code';
import { PolicyView, type RolePolicies } from './policy';

export const PROBLEM_CODES = [
  ...PLAN_PROBLEM_CODES,
  'DATASOURCE_DENIED',
  'TABLE_DENIED',
  'COLUMN_DENIED',
] as const;
export const WARNING_CODES = [
  'JOIN_WITHOUT_FOREIGN_KEY',
  'COMPARISON_TYPE_MISMATCH',
  'ARBITRARY_GROUP_VALUE',
  'AGGREGATE_OVER_TEXT',
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number] | (typeof WARNING_CODES)[number];

/** Problem codes that mean "refused by policy" rather than "the plan is wrong". */
export const REFUSAL_CODES: readonly ProblemCode[] = ['DATASOURCE_DENIED', 'TABLE_DENIED', 'COLUMN_DENIED'];

export interface PlanProblem {
  readonly code: ProblemCode;
  /** JSON Pointer into the plan, e.g. `/body/columns/0/expr`. */
  readonly path: string;
  readonly message: string;
  /** A close existing name, when the problem is a misspelt one. */
  readonly suggestion?: string;
}

export interface ValidationContext {
  readonly datasourceId: string;
  readonly roles?: readonly string[];
  /** `policies.roles` of the config; null/undefined: everyone reads everything. */
  readonly rolePolicies?: RolePolicies | null;
  /** Largest LIMIT a plan may ask for (default 1,000,000). */
  readonly maxLimit?: number;
}

export interface ValidationResult {
  readonly ok: boolean;
  readonly problems: readonly PlanProblem[];
  readonly warnings: readonly PlanProblem[];
}

let shapeValidator: ValidateFunction | null = null;
function shapeCheck(): ValidateFunction {
  shapeValidator ??= new Ajv({ allErrors: false, strict: false }).compile(buildPlanJsonSchema());
  return shapeValidator;
}

export function validatePlan(
  plan: unknown,
  schema: SchemaSnapshot,
  ctx: ValidationContext,
): ValidationResult {
  const check = shapeCheck();
  if (!check(plan)) {
    const problems = (check.errors ?? []).slice(0, 5).map((e) => ({
      code: 'PLAN_SCHEMA_VIOLATION' as const,
      path: e.instancePath || '/',
      message: `The plan does not match the plan schema at ${e.instancePath || '/'}: ${e.message ?? 'invalid'}${
        e.params && 'allowedValues' in e.params ? ` (${(e.params.allowedValues as string[]).join(', ')})` : ''
      }${e.params && 'additionalProperty' in e.params ? ` ("${String(e.params.additionalProperty)}")` : ''}`,
    }));
    return { ok: false, problems, warnings: [] };
  }
  const v = new PlanValidator(schema, ctx);
  v.run(plan as T.Query);
  return { ok: v.problems.length === 0, problems: v.problems, warnings: v.warnings };
}

class PlanValidator {
  readonly problems: PlanProblem[] = [];
  readonly warnings: PlanProblem[] = [];
  private readonly policy: PolicyView;

  constructor(
    private readonly schema: SchemaSnapshot,
    private readonly ctx: ValidationContext,
  ) {
    this.policy = new PolicyView(ctx.rolePolicies, ctx.roles ?? [], ctx.datasourceId);
  }

  private problem(code: ProblemCode, path: string, message: string, suggestion?: string): void {
    this.problems.push(suggestion ? { code, path, message, suggestion } : { code, path, message });
  }

  private warn(code: ProblemCode, path: string, message: string): void {
    this.warnings.push({ code, path, message });
  }

  run(plan: T.Query): void {
    if (!this.policy.canReadDatasource()) {
      this.problem(
        'DATASOURCE_DENIED',
        '/',
        `The caller's roles may not read datasource "${this.ctx.datasourceId}". Do not query it.`,
      );
      return;
    }
    this.query(plan, Scope.root(this.schema), '');
  }

  // ---------- queries ----------

  private query(q: T.Query, outer: Scope, path: string): void {
    let s = outer;
    q.with.forEach((c, i) => {
      this.query(c.query, s, `${path}/with/${i}/query`);
      s = cteScope([c], s);
    });
    const seen = new Set<string>();
    q.with.forEach((c, i) => {
      if (seen.has(c.name.toLowerCase()))
        this.problem(
          'DUPLICATE_ALIAS',
          `${path}/with/${i}/name`,
          `CTE name "${c.name}" is used twice; rename one.`,
        );
      seen.add(c.name.toLowerCase());
    });
    const scope = cteScope(q.with, outer);
    this.body(q.body, scope, `${path}/body`);
    this.orderBy(q, scope, path);
    const max = this.ctx.maxLimit ?? 1_000_000;
    for (const key of ['limit', 'offset'] as const) {
      const n = q[key];
      if (n === null) continue;
      if (!Number.isInteger(n) || n < 0)
        this.problem(
          'BAD_LIMIT',
          `${path}/${key}`,
          `${key} must be a non-negative integer or null, got ${n}.`,
        );
      else if (key === 'limit' && n > max)
        this.problem(
          'LIMIT_TOO_LARGE',
          `${path}/limit`,
          `limit ${n} exceeds the maximum ${max}; use a smaller limit or null.`,
        );
    }
  }

  private body(b: T.Body, scope: Scope, path: string): void {
    switch (b.kind) {
      case 'query':
        return this.query(b, scope, path);
      case 'select':
        return this.select(b, scope, path);
      case 'set_op': {
        this.body(b.left, scope, `${path}/left`);
        this.body(b.right, scope, `${path}/right`);
        const l = outputColumns(asQuery(b.left), scope);
        const r = outputColumns(asQuery(b.right), scope);
        if (l && r && l.length !== r.length) {
          this.problem(
            'SET_OP_COLUMN_COUNT',
            path,
            `Both sides of ${b.op.toUpperCase()} must select the same number of columns (left ${l.length}, right ${r.length}).`,
          );
        }
      }
    }
  }

  private orderBy(q: T.Query, outer: Scope, path: string): void {
    const b = q.body;
    if (b.kind === 'select') {
      const scope = outer.child(relationsOf(b.from, outer));
      const aliases = b.columns.map((c) => c.alias?.toLowerCase()).filter((a) => a);
      q.order_by.forEach((o, i) => {
        const p = `${path}/order_by/${i}/expr`;
        if (o.expr.kind === 'column' && o.expr.table === null && aliases.includes(o.expr.name.toLowerCase()))
          return;
        this.expr(o.expr, scope, p, { aggregates: true, windows: true });
      });
      if (q.order_by.length) {
        this.grouping(
          b,
          scope,
          `${path}/body`,
          q.order_by.map((o, i) => [o.expr, `${path}/order_by/${i}/expr`] as [T.Expr, string]),
        );
      }
      return;
    }
    const cols = outputColumns(q, outer);
    q.order_by.forEach((o, i) => {
      const p = `${path}/order_by/${i}/expr`;
      if (o.expr.kind !== 'column') {
        this.problem(
          'UNKNOWN_COLUMN',
          p,
          'ORDER BY of a set operation or nested query must name one of its output columns.',
        );
        return;
      }
      const name = o.expr.name;
      if (cols && !cols.some((c) => c.name.toLowerCase() === name.toLowerCase())) {
        const names = cols.map((c) => c.name);
        this.problem(
          'UNKNOWN_COLUMN',
          p,
          `"${name}" is not an output column here. Output columns: ${names.join(', ')}.`,
          suggest(name, names),
        );
      }
    });
  }

  private select(sel: T.Select, outer: Scope, path: string): void {
    if (sel.from) this.from(sel.from, outer, `${path}/from`);
    const rels = relationsOf(sel.from, outer);
    const seen = new Set<string>();
    for (const r of rels) {
      const k = r.alias.toLowerCase();
      if (seen.has(k))
        this.problem(
          'DUPLICATE_ALIAS',
          `${path}/from`,
          `"${r.alias}" names two tables in FROM; give each a distinct alias.`,
        );
      seen.add(k);
    }
    const scope = outer.child(rels);
    sel.columns.forEach((c, i) => {
      const p = `${path}/columns/${i}/expr`;
      if (c.expr.kind === 'star') this.star(c.expr, scope, p);
      else this.expr(c.expr, scope, p, { aggregates: true, windows: true });
    });
    if (sel.where)
      this.expr(sel.where, scope, `${path}/where`, { aggregates: false, windows: false, clause: 'WHERE' });
    sel.group_by.forEach((g, i) =>
      this.expr(g, scope, `${path}/group_by/${i}`, { aggregates: false, windows: false, clause: 'GROUP BY' }),
    );
    if (sel.having)
      this.expr(sel.having, scope, `${path}/having`, { aggregates: true, windows: false, clause: 'HAVING' });
    this.grouping(sel, scope, path, null);
  }

  private from(f: T.From, scope: Scope, path: string): void {
    switch (f.kind) {
      case 'table': {
        if (scope.findCte(f.name)) return;
        const t = scope.findTable(f.name);
        if (!t) {
          const names = this.schema.tables.map((x) => x.name);
          this.problem(
            'UNKNOWN_TABLE',
            `${path}/name`,
            `Table "${f.name}" does not exist.${hint(f.name, names)} Tables: ${names.slice(0, 50).join(', ')}.`,
            suggest(f.name, names),
          );
          return;
        }
        if (!this.policy.canReadTable(t.name)) {
          this.problem(
            'TABLE_DENIED',
            `${path}/name`,
            `The caller's roles may not read table "${t.name}". Answer without it.`,
          );
        }
        return;
      }
      case 'derived':
        return this.query(f.query, scope, `${path}/query`);
      case 'join': {
        this.from(f.left, scope, `${path}/left`);
        this.from(f.right, scope, `${path}/right`);
        if (f.join_type !== 'cross' && f.on === null) {
          this.problem(
            'JOIN_MISSING_CONDITION',
            `${path}/on`,
            `A ${f.join_type} join needs an "on" condition (use join_type "cross" for none).`,
          );
        }
        if (f.on) {
          const joinScope = scope.child([...relationsOf(f.left, scope), ...relationsOf(f.right, scope)]);
          this.expr(f.on, joinScope, `${path}/on`, {
            aggregates: false,
            windows: false,
            clause: 'a join condition',
          });
          this.joinKeys(f.on, joinScope, `${path}/on`);
        }
      }
    }
  }

  private joinKeys(on: T.Expr, scope: Scope, path: string): void {
    const conj = on.kind === 'and' ? on.args : [on];
    for (const c of conj) {
      if (c.kind !== 'compare' || c.op !== '=' || c.left.kind !== 'column' || c.right.kind !== 'column')
        continue;
      const l = scope.resolveColumn(c.left.table, c.left.name);
      const r = scope.resolveColumn(c.right.table, c.right.name);
      if (!l.ok || !r.ok || !l.column || !r.column || !l.relation.table || !r.relation.table) continue;
      const fk =
        hasForeignKey(l.relation, l.column.name, r.relation, r.column.name) ||
        hasForeignKey(r.relation, r.column.name, l.relation, l.column.name);
      if (fk) continue;
      const lk = l.column.kind;
      const rk = r.column.kind;
      const compatible =
        lk === rk ||
        (isNumericType(lk) && isNumericType(rk)) ||
        lk === 'unknown' ||
        rk === 'unknown' ||
        lk === 'other' ||
        rk === 'other';
      const names = `${l.relation.alias}.${l.column.name} (${lk}) = ${r.relation.alias}.${r.column.name} (${rk})`;
      if (!compatible) {
        this.problem(
          'JOIN_TYPE_MISMATCH',
          path,
          `Join ${names} compares different types and no foreign key links them; join on columns of the same type.`,
        );
      } else {
        this.warn('JOIN_WITHOUT_FOREIGN_KEY', path, `Join ${names} is not backed by a foreign key.`);
      }
    }
  }

  private star(e: T.Star, scope: Scope, path: string): void {
    const rels =
      e.table === null ? scope.relations : [scope.findRelation(e.table)].filter((r): r is Relation => !!r);
    if (e.table !== null && rels.length === 0) {
      this.problem(
        'UNKNOWN_TABLE_ALIAS',
        path,
        `"${e.table}.*" names no table in FROM.${hint(e.table, scope.allRelationNames())}`,
        suggest(e.table, scope.allRelationNames()),
      );
    }
    for (const r of rels) {
      if (!r.table || !this.policy.canReadTable(r.table.name)) continue;
      const denied = r.table.columns.filter((c) => !this.policy.canReadColumn(r.table!.name, c.name));
      if (denied.length) {
        this.problem(
          'COLUMN_DENIED',
          path,
          `"*" would read columns of "${r.table.name}" the caller may not read (${denied.map((c) => c.name).join(', ')}); list the allowed columns instead.`,
        );
      }
    }
  }

  // ---------- expressions ----------

  private expr(e: T.Expr, scope: Scope, path: string, allow: Allow, inAggregate = false): void {
    const sub = (x: T.Expr, p: string, a: Allow = allow, inAgg = inAggregate) =>
      this.expr(x, scope, `${path}${p}`, a, inAgg);
    switch (e.kind) {
      case 'column':
        return this.column(e, scope, path);
      case 'literal':
        if (
          (e.type === 'date' || e.type === 'timestamp') &&
          typeof e.value !== 'string' &&
          e.value !== null
        ) {
          this.problem('BAD_ARGUMENTS', path, `A ${e.type} literal must be a string like 2024-01-31.`);
        }
        return;
      case 'param':
        return;
      case 'star':
        this.problem(
          'MISPLACED_STAR',
          path,
          '"star" may only be a select item; use aggregate count with arg null for COUNT(*).',
        );
        return;
      case 'negate':
      case 'not':
        return sub(e.arg, '/arg');
      case 'arith':
        sub(e.left, '/left');
        return sub(e.right, '/right');
      case 'compare':
        sub(e.left, '/left');
        sub(e.right, '/right');
        return this.compareTypes(e, scope, path);
      case 'concat':
      case 'and':
      case 'or':
        return e.args.forEach((a, i) => sub(a, `/args/${i}`));
      case 'in_list':
        sub(e.expr, '/expr');
        return e.values.forEach((a, i) => sub(a, `/values/${i}`));
      case 'in_query':
        sub(e.expr, '/expr');
        this.query(e.query, scope, `${path}/query`);
        return this.oneColumn(e.query, scope, `${path}/query`);
      case 'exists':
        return this.query(e.query, scope, `${path}/query`);
      case 'subquery':
        this.query(e.query, scope, `${path}/query`);
        return this.oneColumn(e.query, scope, `${path}/query`);
      case 'between':
        sub(e.expr, '/expr');
        sub(e.low, '/low');
        return sub(e.high, '/high');
      case 'like':
        sub(e.expr, '/expr');
        return sub(e.pattern, '/pattern');
      case 'is_null':
      case 'cast':
        return sub(e.expr, '/expr');
      case 'case':
        if (e.operand) sub(e.operand, '/operand');
        e.whens.forEach((w, i) => {
          sub(w.when, `/whens/${i}/when`);
          sub(w.then, `/whens/${i}/then`);
        });
        if (e.else) sub(e.else, '/else');
        return;
      case 'func': {
        const sig = FUNCTION_SIGNATURES[e.name];
        if (e.args.length < sig.minArgs || e.args.length > sig.maxArgs) {
          const range = sig.minArgs === sig.maxArgs ? `${sig.minArgs}` : `${sig.minArgs} to ${sig.maxArgs}`;
          this.problem(
            'BAD_ARGUMENTS',
            path,
            `Function ${e.name} takes ${range} argument(s), got ${e.args.length}.`,
          );
        }
        return e.args.forEach((a, i) => sub(a, `/args/${i}`));
      }
      case 'aggregate':
        if (!allow.aggregates) {
          this.problem(
            'MISPLACED_AGGREGATE',
            path,
            `Aggregate ${e.fn} is not allowed in ${allow.clause ?? 'this place'}; filter groups with "having" instead.`,
          );
        } else if (inAggregate) {
          this.problem(
            'NESTED_AGGREGATE',
            path,
            `Aggregate ${e.fn} is nested inside another aggregate; aggregate a derived table instead.`,
          );
        }
        if (e.arg === null && e.fn !== 'count')
          this.problem(
            'BAD_ARGUMENTS',
            path,
            `Aggregate ${e.fn} needs an argument (only count takes null for COUNT(*)).`,
          );
        if (e.arg && (e.fn === 'avg' || e.fn === 'sum') && inferType(e.arg, scope) === 'text') {
          // Engines disagree on text that holds numbers or dates: SQLite reads the longest numeric
          // prefix ('1988-05-02' -> 1988), PostgreSQL refuses, DuckDB casts the whole text or fails.
          this.warn(
            'AGGREGATE_OVER_TEXT',
            path,
            `${e.fn} is taken over a text column; cast it to a number (or extract the part you need) so every database reads it the same way.`,
          );
        }
        if (e.arg) sub(e.arg, '/arg', allow, true);
        return;
      case 'window': {
        if (!allow.windows) {
          this.problem(
            'MISPLACED_WINDOW',
            path,
            `Window function ${e.fn} is not allowed in ${allow.clause ?? 'this place'}; compute it in a derived table and filter outside.`,
          );
        }
        const arity: Record<string, [number, number]> = {
          row_number: [0, 0],
          rank: [0, 0],
          dense_rank: [0, 0],
          percent_rank: [0, 0],
          cume_dist: [0, 0],
          ntile: [1, 1],
          lag: [1, 3],
          lead: [1, 3],
          first_value: [1, 1],
          last_value: [1, 1],
          count: [0, 1],
          sum: [1, 1],
          avg: [1, 1],
          min: [1, 1],
          max: [1, 1],
        };
        const [lo, hi] = arity[e.fn] ?? [0, 3];
        if (e.args.length < lo || e.args.length > hi)
          this.problem(
            'BAD_ARGUMENTS',
            path,
            `Window function ${e.fn} takes ${lo === hi ? lo : `${lo} to ${hi}`} argument(s), got ${e.args.length}.`,
          );
        const inner: Allow = { aggregates: true, windows: false, clause: 'a window function' };
        e.args.forEach((a, i) => sub(a, `/args/${i}`, inner));
        e.partition_by.forEach((a, i) => sub(a, `/partition_by/${i}`, inner));
        e.order_by.forEach((o, i) => sub(o.expr, `/order_by/${i}/expr`, inner));
        if (e.frame) {
          for (const side of ['start', 'end'] as const) {
            const bnd = e.frame[side];
            const needs = bnd.bound === 'preceding' || bnd.bound === 'following';
            if (needs !== (bnd.offset !== null) || (bnd.offset !== null && bnd.offset < 0)) {
              this.problem(
                'BAD_FRAME',
                `${path}/frame/${side}`,
                `Frame bound ${bnd.bound} ${needs ? 'needs a non-negative integer offset' : 'takes offset null'}.`,
              );
            }
          }
        }
        return;
      }
    }
  }

  private column(e: T.Column, scope: Scope, path: string): void {
    const r = scope.resolveColumn(e.table, e.name);
    if (!r.ok) {
      if (r.reason === 'unknown_table') {
        this.problem(
          'UNKNOWN_TABLE_ALIAS',
          `${path}/table`,
          `"${e.table}" is not a table or alias in scope.${hint(e.table!, r.candidates)} In scope: ${r.candidates.join(', ') || 'none'}.`,
          suggest(e.table!, r.candidates),
        );
      } else if (r.reason === 'ambiguous') {
        this.problem(
          'AMBIGUOUS_COLUMN',
          path,
          `Column "${e.name}" exists in several tables (${r.candidates.join(', ')}); set "table" to one of them.`,
        );
      } else {
        const where = e.table ? `table "${e.table}"` : 'any table in scope';
        const names = [...new Set(r.candidates)];
        this.problem(
          'UNKNOWN_COLUMN',
          `${path}/name`,
          `Column "${e.name}" does not exist in ${where}.${hint(e.name, names)} Available: ${names.slice(0, 60).join(', ')}.`,
          suggest(e.name, names),
        );
      }
      return;
    }
    const t = r.relation.table;
    // A denied table is reported once, where FROM names it; its columns are not reported again.
    if (
      t &&
      r.column &&
      this.policy.canReadTable(t.name) &&
      !this.policy.canReadColumn(t.name, r.column.name)
    ) {
      this.problem(
        'COLUMN_DENIED',
        path,
        `The caller's roles may not read column "${t.name}.${r.column.name}". Answer without it.`,
      );
    }
  }

  private compareTypes(e: T.Compare, scope: Scope, path: string): void {
    const lit = e.right.kind === 'literal' ? e.right : e.left.kind === 'literal' ? e.left : null;
    const other = lit === e.right ? e.left : e.right;
    if (lit && typeof lit.value === 'number' && inferType(other, scope) === 'text') {
      this.warn(
        'COMPARISON_TYPE_MISMATCH',
        path,
        `A text value is compared with the number ${lit.value}; databases differ in how they convert the text (cast it explicitly).`,
      );
      return;
    }
    if (!lit || typeof lit.value !== 'string') return;
    const t = inferType(other, scope);
    if (isNumericType(t) && !/^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(lit.value)) {
      this.warn(
        'COMPARISON_TYPE_MISMATCH',
        path,
        `A ${t} value is compared with the text "${lit.value}", which is not a number.`,
      );
    }
  }

  private oneColumn(q: T.Query, scope: Scope, path: string): void {
    const cols = outputColumns(q, scope);
    if (cols && cols.length !== 1) {
      this.problem(
        'SUBQUERY_COLUMN_COUNT',
        path,
        `This subquery must select exactly one column, it selects ${cols.length}.`,
      );
    }
  }

  // ---------- grouping ----------

  /**
   * In a grouped select every column outside an aggregate must be grouped, or depend on grouped
   * columns (a table whose whole primary key is grouped, directly or through join equalities), or
   * sit beside exactly one MIN/MAX (it then comes from that row, SQLite's documented rule).
   */
  private grouping(
    sel: T.Select,
    scope: Scope,
    path: string,
    orderItems: readonly [T.Expr, string][] | null,
  ): void {
    const grouped =
      sel.group_by.length > 0 ||
      sel.columns.some((c) => containsAggregate(c.expr)) ||
      (sel.having !== null && containsAggregate(sel.having));
    if (!grouped) return;
    let minMax = 0;
    for (const c of sel.columns) {
      walkExpr(c.expr, (x) => {
        if (x.kind === 'aggregate' && (x.fn === 'min' || x.fn === 'max')) minMax++;
        return x.kind !== 'window';
      });
    }
    const key = (table: string | null, name: string): string | null => {
      const r = scope.resolveColumn(table, name);
      return r.ok && r.depth === 0
        ? `${r.relation.alias.toLowerCase()}.${(r.column?.name ?? name).toLowerCase()}`
        : null;
    };
    const groupedExprs = new Set(
      sel.group_by.filter((g) => g.kind !== 'column').map((g) => JSON.stringify(g)),
    );
    const keys = new Set(
      sel.group_by
        .flatMap((g) => (g.kind === 'column' ? [key(g.table, g.name)] : []))
        .filter((k): k is string => !!k),
    );
    this.closeOverEqualities(sel, keys, key);
    for (const rel of scope.relations) {
      const pk = rel.table?.primaryKey ?? [];
      if (pk.length && pk.every((c) => keys.has(`${rel.alias.toLowerCase()}.${c.toLowerCase()}`))) {
        for (const c of rel.columns ?? []) keys.add(`${rel.alias.toLowerCase()}.${c.name.toLowerCase()}`);
      }
    }
    // Called once for the select itself and once more, from its query, for the ORDER BY items.
    const items: readonly [T.Expr, string][] = orderItems ?? [
      ...sel.columns.map((c, i) => [c.expr, `${path}/columns/${i}/expr`] as [T.Expr, string]),
      ...(sel.having ? [[sel.having, `${path}/having`] as [T.Expr, string]] : []),
    ];
    const aliases = new Set(sel.columns.map((c) => c.alias?.toLowerCase()).filter((a) => a));
    for (const [expr, p] of items) {
      walkExpr(expr, (x) => {
        if (x.kind === 'aggregate' || x.kind === 'window') return false;
        if (groupedExprs.has(JSON.stringify(x))) return false;
        if (x.kind === 'star') {
          this.problem(
            'UNGROUPED_COLUMN',
            p,
            'A grouped query cannot select "*"; select grouped columns and aggregates.',
          );
          return false;
        }
        if (x.kind !== 'column') return true;
        if (x.table === null && aliases.has(x.name.toLowerCase()) && orderItems) return false;
        const k = key(x.table, x.name);
        if (k === null || keys.has(k)) return false;
        if (minMax === 1) {
          this.warn(
            'ARBITRARY_GROUP_VALUE',
            p,
            `Column "${x.name}" is not grouped; it takes its value from the row of the query's one MIN/MAX.`,
          );
          return false;
        }
        this.problem(
          'UNGROUPED_COLUMN',
          p,
          `Column "${x.table ? `${x.table}.` : ''}${x.name}" must appear in group_by or be used inside an aggregate (e.g. min or max).`,
        );
        return false;
      });
    }
  }

  private closeOverEqualities(
    sel: T.Select,
    keys: Set<string>,
    key: (t: string | null, n: string) => string | null,
  ): void {
    const pairs: [string, string][] = [];
    const collect = (e: T.Expr | null) => {
      if (!e) return;
      for (const c of e.kind === 'and' ? e.args : [e]) {
        if (c.kind === 'compare' && c.op === '=' && c.left.kind === 'column' && c.right.kind === 'column') {
          const a = key(c.left.table, c.left.name);
          const b = key(c.right.table, c.right.name);
          if (a && b) pairs.push([a, b]);
        }
      }
    };
    const fromOns = (f: T.From | null) => {
      if (f?.kind !== 'join') return;
      if (f.join_type === 'inner') collect(f.on);
      fromOns(f.left);
      fromOns(f.right);
    };
    fromOns(sel.from);
    collect(sel.where);
    let changed = true;
    while (changed) {
      changed = false;
      for (const [a, b] of pairs) {
        for (const [x, y] of [
          [a, b],
          [b, a],
        ] as const) {
          if (keys.has(x) && !keys.has(y)) {
            keys.add(y);
            changed = true;
          }
        }
      }
    }
  }
}

interface Allow {
  readonly aggregates: boolean;
  readonly windows: boolean;
  readonly clause?: string;
}

function asQuery(b: T.Body): T.Query {
  return b.kind === 'query'
    ? b
    : { kind: 'query', with: [], body: b, order_by: [], limit: null, offset: null };
}

function hasForeignKey(from: Relation, col: string, to: Relation, toCol: string): boolean {
  return (from.table?.foreignKeys ?? []).some(
    (fk) =>
      fk.refTable.toLowerCase() === (to.table?.name ?? '').toLowerCase() &&
      fk.columns.some((c) => c.toLowerCase() === col.toLowerCase()) &&
      fk.refColumns.some((c) => c.toLowerCase() === toCol.toLowerCase()),
  );
}

/** The closest existing name when it is close enough to be a misspelling. */
export function suggest(name: string, candidates: readonly string[]): string | undefined {
  if (!candidates.length) return undefined;
  const lowerMap = new Map(candidates.map((c) => [c.toLowerCase(), c]));
  const best = closest(name.toLowerCase(), [...lowerMap.keys()]);
  if (best === undefined) return undefined;
  const d = distance(name.toLowerCase(), best);
  return d <= Math.max(2, Math.floor(name.length / 3)) ? lowerMap.get(best) : undefined;
}

function hint(name: string, candidates: readonly string[]): string {
  const s = suggest(name, candidates);
  return s ? ` Did you mean "${s}"?` : '';
}
