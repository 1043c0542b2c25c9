/**
 * Row filters and masks applied to a plan for one caller: every reference to a table whose rows
 * or columns the caller's roles narrow — in FROM, on either side of any join, in a subquery, a
 * CTE's body, a derived table, each branch of a set operation, a correlated subquery — is replaced
 * by a derived table of the same alias over that table alone (table-policies.ts). So a filter
 * applies before anything else reads the table: before joins (an outer join keeps its meaning:
 * the hidden rows are simply not there), before aggregation (counts and sums see only permitted
 * rows), before a window function; and whatever a clause computes from a masked column, it
 * computes from the mask.
 *
 * Which references are tables is decided by the same scope rules the validator and the compiler
 * use (plan/scope.ts): a CTE named like a table shadows it where it is visible, and a reference
 * to that CTE is left alone (its body's own references to the table were rewritten). The walk
 * follows the one `childrenOf` (plan/walk.ts). The rewritten plan is compiled and never stored:
 * the plan cache keeps plans as planned, and every use applies the policies of its own caller.
 */
import type { SchemaSnapshot, TableInfo } from '../datasources/schema';
import type { PlanProblem } from '../plan';
import * as b from '../plan/build';
import { Scope } from '../plan/scope';
import type { Query, TableRef } from '../plan/types';
import { PolicyView, type RolePolicies } from '../plan/validator/policy';
import { childrenOf, type PlanNode } from '../plan/walk';
import type { CallerAttributes } from './row-filters';
import { tablePolicy, type PolicyApplied, type TablePolicy, type TablePolicyInput } from './table-policies';

export interface RewriteSubject {
  readonly datasourceId: string;
  readonly roles: readonly string[];
  readonly snapshot: SchemaSnapshot;
  readonly attributes: CallerAttributes;
}

export type Rewrite =
  | {
      readonly kind: 'rewritten';
      /** The plan to compile (the same object when nothing applied). */
      readonly plan: Query;
      /** Caller attribute values by parameter name (`user.region`), bound like every value. */
      readonly params: Readonly<Record<string, string>>;
      readonly applied: readonly PolicyApplied[];
    }
  | { readonly kind: 'refused'; readonly problems: readonly PlanProblem[] };

export function applyRowPolicies(
  plan: Query,
  subject: RewriteSubject,
  policies: RolePolicies | null,
): Rewrite {
  if (!policies) return { kind: 'rewritten', plan, params: {}, applied: [] };
  const input: TablePolicyInput = {
    view: new PolicyView(policies, subject.roles, subject.datasourceId),
    datasourceId: subject.datasourceId,
    snapshot: subject.snapshot,
    attributes: subject.attributes,
    params: {},
  };
  const walker = new Rewriter(input);
  const copy = structuredClone<Query>(plan);
  walker.query(copy, Scope.root(subject.snapshot));
  if (walker.problems.length) return { kind: 'refused', problems: walker.problems };
  if (!walker.changed) return { kind: 'rewritten', plan, params: {}, applied: [] };
  return { kind: 'rewritten', plan: copy, params: input.params, applied: dedupe(walker.applied) };
}

class Rewriter {
  readonly applied: PolicyApplied[] = [];
  readonly problems: PlanProblem[] = [];
  changed = false;
  private readonly byTable = new Map<TableInfo, Map<string, TablePolicy>>();

  constructor(private readonly input: TablePolicyInput) {}

  /** A query: each CTE sees the ones before it, the body and ORDER BY see all of them. */
  query(q: Query, outer: Scope): void {
    let scope = outer;
    for (const c of q.with) {
      this.node(c.query, scope);
      scope = scope.withCtes([{ name: c.name, columns: null }]);
    }
    this.node(q.body, scope);
    for (const o of q.order_by) this.node(o.expr, scope.child([]));
  }

  /**
   * Any other node: FROM and the sides of a join are read in the scope the select is in, its
   * expressions (and a join's ON) one level down, as the compiler reads them.
   */
  private node(n: PlanNode, scope: Scope): void {
    if (n.kind === 'query') return this.query(n, scope);
    const inner = n.kind === 'select' || n.kind === 'join' ? scope.child([]) : scope;
    for (const child of childrenOf(n)) {
      const outerSide =
        (n.kind === 'select' && child.path === '/from') || (n.kind === 'join' && child.path !== '/on');
      const s = outerSide ? scope : inner;
      if (child.node.kind === 'table') {
        const replacement = this.replacement(child.node, s);
        if (replacement) {
          (n as unknown as Record<string, unknown>)[child.path.slice(1)] = replacement;
          this.changed = true;
        }
        continue;
      }
      this.node(child.node, s);
    }
  }

  /** The derived table standing for a table reference, or null when the reference stays as it is. */
  private replacement(ref: TableRef, scope: Scope): PlanNode | null {
    if (scope.findCte(ref.name)) return null;
    const table = scope.findTable(ref.name);
    if (!table) return null;
    const policy = this.policyOf(table, ref.name);
    switch (policy.kind) {
      case 'none':
        return null;
      case 'refused':
        if (!this.problems.some((p) => p.message === policy.problem.message))
          this.problems.push(policy.problem);
        return null;
      case 'rewrite':
        this.applied.push(...policy.applied);
        // The alias the reference had (a bare table is named by its own name), so every column
        // reference to it, correlated ones included, now reads the derived table.
        return b.derived(policy.query, ref.alias ?? table.name);
    }
  }

  private policyOf(table: TableInfo, spelled: string): TablePolicy {
    let bySpelling = this.byTable.get(table);
    if (!bySpelling) this.byTable.set(table, (bySpelling = new Map()));
    let policy = bySpelling.get(spelled);
    if (!policy) {
      policy = tablePolicy(table, spelled, this.input);
      bySpelling.set(spelled, policy);
    }
    return policy;
  }
}

function dedupe(applied: readonly PolicyApplied[]): PolicyApplied[] {
  const seen = new Set<string>();
  return applied.filter((a) => {
    const key = `${a.kind}\u0000${a.target}\u0000${a.role}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
