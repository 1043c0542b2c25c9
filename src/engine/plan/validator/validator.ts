/**
 * The plan validator: checks a plan's shape against the JSON Schema, then resolves every table,
 * alias and column against the datasource's schema, checks grouping, joins, functions, LIMIT
 * bounds and the caller's role policies. Every problem has a stable code, a path into the plan
 * (JSON Pointer) and a message written so that a model can repair the plan from it.
 *
 * This file holds the query-level checks (CTEs, set operations, FROM, joins, ORDER BY, LIMIT);
 * expressions are checked in expressions.ts, grouping in grouping.ts.
 */
import type { SchemaSnapshot } from '../../datasources/schema';
import { cteScope, isNumericType, outputColumns, relationsOf } from '../inference';
import { planDepthProblem } from '../limits';
import { describeShapeError, shapeErrors } from '../shape';
import { Scope, type Relation } from '../scope';
import type * as T from '../types';
import { checkExpr, type Allow, type Checker } from './expressions';
import { checkGrouping } from './grouping';
import { PolicyView, type RolePolicies } from './policy';
import { Findings, hint, suggest, type PlanProblem } from './problems';

export { PROBLEM_CODES, WARNING_CODES, REFUSAL_CODES, type PlanProblem, type ProblemCode } from './problems';

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

export function validatePlan(
  plan: unknown,
  schema: SchemaSnapshot,
  ctx: ValidationContext,
): ValidationResult {
  // Before anything that recurses over the plan (the shape check included).
  const tooDeep = planDepthProblem(plan);
  if (tooDeep)
    return { ok: false, problems: [{ code: 'PLAN_TOO_COMPLEX', path: '/', message: tooDeep }], warnings: [] };
  const mismatches = shapeErrors(plan);
  if (mismatches.length) {
    const problems = mismatches.map((e) => ({
      code: 'PLAN_SCHEMA_VIOLATION' as const,
      path: e.instancePath || '/',
      message: describeShapeError(e),
    }));
    return { ok: false, problems, warnings: [] };
  }
  const v = new PlanValidator(schema, ctx);
  v.run(plan as T.Query);
  const { problems, warnings } = v.findings;
  return { ok: problems.length === 0, problems, warnings };
}

const ANYWHERE: Allow = { aggregates: true, windows: true };

class PlanValidator implements Checker {
  readonly findings = new Findings();
  readonly policy: PolicyView;

  constructor(
    private readonly schema: SchemaSnapshot,
    private readonly ctx: ValidationContext,
  ) {
    this.policy = new PolicyView(ctx.rolePolicies, ctx.roles ?? [], ctx.datasourceId);
  }

  run(plan: T.Query): void {
    if (!this.policy.canReadDatasource()) {
      this.findings.problem(
        'DATASOURCE_DENIED',
        '/',
        `The caller's roles may not read datasource "${this.ctx.datasourceId}". Do not query it.`,
      );
      return;
    }
    this.query(plan, Scope.root(this.schema), '');
  }

  // ---------- queries ----------

  query(q: T.Query, outer: Scope, path: string): void {
    this.ctes(q, outer, path);
    const scope = cteScope(q.with, outer);
    this.body(q.body, scope, `${path}/body`);
    if (q.body.kind === 'select') this.selectOrderBy(q, q.body, scope, path);
    else this.outputOrderBy(q, scope, path);
    this.limits(q, path);
  }

  private ctes(q: T.Query, outer: Scope, path: string): void {
    let s = outer;
    q.with.forEach((c, i) => {
      this.query(c.query, s, `${path}/with/${i}/query`);
      s = cteScope([c], s);
    });
    const seen = new Set<string>();
    q.with.forEach((c, i) => {
      if (seen.has(c.name.toLowerCase()))
        this.findings.problem(
          'DUPLICATE_ALIAS',
          `${path}/with/${i}/name`,
          `CTE name "${c.name}" is used twice; rename one.`,
        );
      seen.add(c.name.toLowerCase());
    });
  }

  private limits(q: T.Query, path: string): void {
    const max = this.ctx.maxLimit ?? 1_000_000;
    for (const key of ['limit', 'offset'] as const) {
      const n = q[key];
      if (n === null) continue;
      if (!Number.isInteger(n) || n < 0)
        this.findings.problem(
          'BAD_LIMIT',
          `${path}/${key}`,
          `${key} must be a non-negative integer or null, got ${n}.`,
        );
      else if (key === 'limit' && n > max)
        this.findings.problem(
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
          this.findings.problem(
            'SET_OP_COLUMN_COUNT',
            path,
            `Both sides of ${b.op.toUpperCase()} must select the same number of columns (left ${l.length}, right ${r.length}).`,
          );
        }
      }
    }
  }

  /** ORDER BY of a select: its expressions, output aliases, and the grouping rule. */
  private selectOrderBy(q: T.Query, b: T.Select, outer: Scope, path: string): void {
    const scope = outer.child(relationsOf(b.from, outer));
    const aliases = b.columns.map((c) => c.alias?.toLowerCase()).filter((a) => a);
    q.order_by.forEach((o, i) => {
      if (o.expr.kind === 'column' && o.expr.table === null && aliases.includes(o.expr.name.toLowerCase()))
        return;
      checkExpr(this, o.expr, scope, `${path}/order_by/${i}/expr`, ANYWHERE, false, 'ORDER BY');
    });
    if (q.order_by.length) {
      const items = q.order_by.map((o, i) => [o.expr, `${path}/order_by/${i}/expr`] as [T.Expr, string]);
      checkGrouping(this.findings, b, scope, `${path}/body`, items);
    }
  }

  /** ORDER BY of a set operation or nested query: names of its output columns only. */
  private outputOrderBy(q: T.Query, outer: Scope, path: string): void {
    const cols = outputColumns(q, outer);
    q.order_by.forEach((o, i) => {
      const p = `${path}/order_by/${i}/expr`;
      if (o.expr.kind !== 'column') {
        this.findings.problem(
          'UNKNOWN_COLUMN',
          p,
          'ORDER BY of a set operation or nested query must name one of its output columns.',
        );
        return;
      }
      const name = o.expr.name;
      if (cols && !cols.some((c) => c.name.toLowerCase() === name.toLowerCase())) {
        const names = cols.map((c) => c.name);
        this.findings.problem(
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
        this.findings.problem(
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
      else checkExpr(this, c.expr, scope, p, ANYWHERE);
    });
    if (sel.where)
      checkExpr(this, sel.where, scope, `${path}/where`, {
        aggregates: false,
        windows: false,
        clause: 'WHERE',
      });
    sel.group_by.forEach((g, i) =>
      checkExpr(this, g, scope, `${path}/group_by/${i}`, {
        aggregates: false,
        windows: false,
        clause: 'GROUP BY',
      }),
    );
    if (sel.having)
      checkExpr(this, sel.having, scope, `${path}/having`, {
        aggregates: true,
        windows: false,
        clause: 'HAVING',
      });
    checkGrouping(this.findings, sel, scope, path, null);
  }

  // ---------- FROM ----------

  private from(f: T.From, scope: Scope, path: string): void {
    switch (f.kind) {
      case 'table':
        return this.table(f, scope, path);
      case 'derived':
        return this.query(f.query, scope, `${path}/query`);
      case 'join':
        return this.join(f, scope, path);
    }
  }

  private table(f: T.TableRef, scope: Scope, path: string): void {
    if (scope.findCte(f.name)) return;
    const t = scope.findTable(f.name);
    if (!t) {
      const names = this.schema.tables.map((x) => x.name);
      this.findings.problem(
        'UNKNOWN_TABLE',
        `${path}/name`,
        `Table "${f.name}" does not exist.${hint(f.name, names)} Tables: ${names.slice(0, 50).join(', ')}.`,
        suggest(f.name, names),
      );
      return;
    }
    if (!this.policy.canReadTable(t.name)) {
      this.findings.problem(
        'TABLE_DENIED',
        `${path}/name`,
        `The caller's roles may not read table "${t.name}". Answer without it.`,
      );
    }
  }

  private join(f: T.Join, scope: Scope, path: string): void {
    this.from(f.left, scope, `${path}/left`);
    this.from(f.right, scope, `${path}/right`);
    if (f.join_type !== 'cross' && f.on === null) {
      this.findings.problem(
        'JOIN_MISSING_CONDITION',
        `${path}/on`,
        `A ${f.join_type} join needs an "on" condition (use join_type "cross" for none).`,
      );
    }
    if (!f.on) return;
    const joinScope = scope.child([...relationsOf(f.left, scope), ...relationsOf(f.right, scope)]);
    checkExpr(this, f.on, joinScope, `${path}/on`, {
      aggregates: false,
      windows: false,
      clause: 'a join condition',
    });
    this.joinKeys(f.on, joinScope, `${path}/on`);
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
        this.findings.problem(
          'JOIN_TYPE_MISMATCH',
          path,
          `Join ${names} compares different types and no foreign key links them; join on columns of the same type.`,
        );
      } else {
        this.findings.warn('JOIN_WITHOUT_FOREIGN_KEY', path, `Join ${names} is not backed by a foreign key.`);
      }
    }
  }

  private star(e: T.Star, scope: Scope, path: string): void {
    const rels =
      e.table === null ? scope.relations : [scope.findRelation(e.table)].filter((r): r is Relation => !!r);
    if (e.table !== null && rels.length === 0) {
      this.findings.problem(
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
        this.findings.problem(
          'COLUMN_DENIED',
          path,
          `"*" would read columns of "${r.table.name}" the caller may not read (${denied.map((c) => c.name).join(', ')}); list the allowed columns instead.`,
        );
      }
    }
  }
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
