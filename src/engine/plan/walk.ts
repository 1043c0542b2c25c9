/**
 * The one place that knows which plan nodes a node holds. `childrenOf` is a table keyed by every
 * node kind (`Record<Kind, ...>`), so a new kind in ast.ts does not compile until its children are
 * listed here; the scope, the validator, the compiler and parameter collection all walk through it.
 *
 * A child comes with its JSON Pointer relative to its parent (`/args/0`, `/whens/1/then`), the
 * same path the validator reports problems at. Nested queries are children like any other node
 * (kind `query`), so a walk that stays at one query level skips them.
 */
import type { ExprKind, ExprOf } from './types';
import type * as T from './types';

/** Every node of a plan that carries a `kind` tag. */
export type PlanNode = T.Expr | T.Query | T.Select | T.SetOp | T.TableRef | T.Derived | T.Join;
export type PlanKind = PlanNode['kind'];
export type NodeOf<K extends PlanKind> = Extract<PlanNode, { kind: K }>;

export interface Child<N extends PlanNode = PlanNode> {
  readonly node: N;
  /** JSON Pointer of the child relative to its parent. */
  readonly path: string;
}

/** What an expression holds: expressions, and the queries of subqueries, IN and EXISTS. */
export type ExprChild = Child<T.Expr | T.Query>;

type ChildTable = { [K in ExprKind]: (n: ExprOf<K>) => readonly ExprChild[] } & {
  [K in Exclude<PlanKind, ExprKind>]: (n: NodeOf<K>) => readonly Child[];
};

const NONE: readonly never[] = Object.freeze([]);

const one = <N extends PlanNode>(node: N, path: string): Child<N> => ({ node, path });
const list = <N extends PlanNode>(nodes: readonly N[], path: string): Child<N>[] =>
  nodes.map((node, i) => ({ node, path: `${path}/${i}` }));
const optional = <N extends PlanNode>(node: N | null, path: string): Child<N>[] =>
  node ? [{ node, path }] : [];
const orderExprs = (items: readonly T.OrderItem[]): Child<T.Expr>[] =>
  items.map((o, i) => ({ node: o.expr, path: `/order_by/${i}/expr` }));

const CHILDREN: ChildTable = {
  column: () => NONE,
  literal: () => NONE,
  param: () => NONE,
  star: () => NONE,
  negate: (n) => [one(n.arg, '/arg')],
  not: (n) => [one(n.arg, '/arg')],
  arith: (n) => [one(n.left, '/left'), one(n.right, '/right')],
  compare: (n) => [one(n.left, '/left'), one(n.right, '/right')],
  concat: (n) => list(n.args, '/args'),
  and: (n) => list(n.args, '/args'),
  or: (n) => list(n.args, '/args'),
  func: (n) => list(n.args, '/args'),
  in_list: (n) => [one(n.expr, '/expr'), ...list(n.values, '/values')],
  in_query: (n) => [one(n.expr, '/expr'), one(n.query, '/query')],
  exists: (n) => [one(n.query, '/query')],
  subquery: (n) => [one(n.query, '/query')],
  between: (n) => [one(n.expr, '/expr'), one(n.low, '/low'), one(n.high, '/high')],
  like: (n) => [one(n.expr, '/expr'), one(n.pattern, '/pattern')],
  is_null: (n) => [one(n.expr, '/expr')],
  cast: (n) => [one(n.expr, '/expr')],
  case: (n) => [
    ...optional(n.operand, '/operand'),
    ...n.whens.flatMap((w, i) => [one(w.when, `/whens/${i}/when`), one(w.then, `/whens/${i}/then`)]),
    ...optional(n.else, '/else'),
  ],
  aggregate: (n) => optional(n.arg, '/arg'),
  window: (n) => [
    ...list(n.args, '/args'),
    ...list(n.partition_by, '/partition_by'),
    ...orderExprs(n.order_by),
  ],
  query: (n) => [
    ...n.with.map((c, i) => one(c.query, `/with/${i}/query`)),
    one(n.body, '/body'),
    ...orderExprs(n.order_by),
  ],
  select: (n) => [
    ...n.columns.map((c, i) => one(c.expr, `/columns/${i}/expr`)),
    ...optional(n.from, '/from'),
    ...optional(n.where, '/where'),
    ...list(n.group_by, '/group_by'),
    ...optional(n.having, '/having'),
  ],
  set_op: (n) => [one(n.left, '/left'), one(n.right, '/right')],
  table: () => NONE,
  derived: (n) => [one(n.query, '/query')],
  join: (n) => [one(n.left, '/left'), one(n.right, '/right'), ...optional(n.on, '/on')],
};

/** The nodes `node` holds, in the order they appear in SQL. */
export function childrenOf(node: T.Expr): readonly ExprChild[];
export function childrenOf(node: PlanNode): readonly Child[];
export function childrenOf(node: PlanNode): readonly Child[] {
  return (CHILDREN[node.kind] as (n: PlanNode) => readonly Child[])(node);
}

/**
 * Visits an expression tree at one query level, depth first: nested queries are not entered.
 * `visit` returns false to skip a node's children. The walk keeps its own stack, so no input is
 * deep enough to overflow the call stack.
 */
export function walkExpr(e: T.Expr, visit: (x: T.Expr) => boolean | void): void {
  const stack: T.Expr[] = [e];
  while (stack.length) {
    const x = stack.pop()!;
    if (visit(x) === false) continue;
    const kids = childrenOf(x);
    for (let i = kids.length - 1; i >= 0; i--) {
      const k = kids[i]!.node;
      if (k.kind !== 'query') stack.push(k);
    }
  }
}

/** Visits every node of a plan (nested queries included), depth first, with its own stack. */
export function walkPlan(root: PlanNode, visit: (node: PlanNode) => void): void {
  const stack: PlanNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    visit(node);
    const kids = childrenOf(node);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!.node);
  }
}

/** True when the expression contains an aggregate at this query level (not inside a subquery or window). */
export function containsAggregate(e: T.Expr): boolean {
  let found = false;
  walkExpr(e, (x) => {
    if (x.kind === 'aggregate') found = true;
    return x.kind !== 'aggregate' && x.kind !== 'window';
  });
  return found;
}

/** The names of the `param` nodes anywhere in a plan, in the order they appear. */
export function paramNames(plan: T.Query): Set<string> {
  const names = new Set<string>();
  walkPlan(plan, (n) => {
    if (n.kind === 'param') names.add(n.name);
  });
  return names;
}
