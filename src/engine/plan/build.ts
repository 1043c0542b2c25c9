/**
 * Small frozen factories for plan nodes (the importer and tests build plans with these). Every
 * factory fills the nullable/empty fields the schema requires, so a built node is always complete.
 */
import type { ScalarFunctionName } from './functions';
import type * as T from './types';

const f = <N extends object>(node: N): N => Object.freeze(node);

export const col = (name: string, table: string | null = null): T.Column =>
  f({ kind: 'column', table, name });
export const lit = (value: T.Literal['value'], type: T.Literal['type'] = null): T.Literal =>
  f({ kind: 'literal', value, type });
export const param = (name: string): T.Param => f({ kind: 'param', name });
export const negate = (arg: T.Expr): T.Negate => f({ kind: 'negate', arg });
export const arith = (op: T.Arith['op'], left: T.Expr, right: T.Expr): T.Arith =>
  f({ kind: 'arith', op, left, right });
export const concat = (...args: T.Expr[]): T.Concat => f({ kind: 'concat', args: f(args) });
export const cmp = (op: T.Compare['op'], left: T.Expr, right: T.Expr): T.Compare =>
  f({ kind: 'compare', op, left, right });
export const and = (...args: T.Expr[]): T.And => f({ kind: 'and', args: f(args) });
export const or = (...args: T.Expr[]): T.Or => f({ kind: 'or', args: f(args) });
export const not = (arg: T.Expr): T.Not => f({ kind: 'not', arg });
export const inList = (expr: T.Expr, values: T.Expr[], negated = false): T.InList =>
  f({ kind: 'in_list', expr, values: f(values), negated });
export const inQuery = (expr: T.Expr, query: T.Query, negated = false): T.InQuery =>
  f({ kind: 'in_query', expr, query, negated });
export const exists = (query: T.Query, negated = false): T.Exists => f({ kind: 'exists', query, negated });
export const between = (expr: T.Expr, low: T.Expr, high: T.Expr, negated = false): T.Between =>
  f({ kind: 'between', expr, low, high, negated });
export const like = (expr: T.Expr, pattern: T.Expr, negated = false, caseInsensitive = true): T.Like =>
  f({ kind: 'like', expr, pattern, negated, case_insensitive: caseInsensitive });
export const isNull = (expr: T.Expr, negated = false): T.IsNull => f({ kind: 'is_null', expr, negated });
export const caseWhen = (
  operand: T.Expr | null,
  whens: { when: T.Expr; then: T.Expr }[],
  otherwise: T.Expr | null = null,
): T.Case => f({ kind: 'case', operand, whens: f(whens.map((w) => f(w))), else: otherwise });
export const cast = (expr: T.Expr, to: T.Cast['to']): T.Cast => f({ kind: 'cast', expr, to });
export const fn = (name: ScalarFunctionName, ...args: T.Expr[]): T.Func =>
  f({ kind: 'func', name, args: f(args) });
export const agg = (fnName: T.Aggregate['fn'], arg: T.Expr | null, distinct = false): T.Aggregate =>
  f({ kind: 'aggregate', fn: fnName, arg, distinct });
export const countStar = (): T.Aggregate => agg('count', null);
export const windowFn = (
  fnName: T.Window['fn'],
  args: T.Expr[],
  over: { partitionBy?: T.Expr[]; orderBy?: T.OrderItem[]; frame?: T.Frame | null } = {},
): T.Window =>
  f({
    kind: 'window',
    fn: fnName,
    args: f(args),
    partition_by: f(over.partitionBy ?? []),
    order_by: f(over.orderBy ?? []),
    frame: over.frame ?? null,
  });
export const subquery = (query: T.Query): T.Subquery => f({ kind: 'subquery', query });
export const star = (table: string | null = null): T.Star => f({ kind: 'star', table });

export const order = (
  expr: T.Expr,
  direction: 'asc' | 'desc' = 'asc',
  nulls: T.OrderItem['nulls'] = null,
): T.OrderItem => f({ expr, direction, nulls });
export const item = (expr: T.Expr, alias: string | null = null): T.SelectItem => f({ expr, alias });
export const table = (name: string, alias: string | null = null): T.TableRef =>
  f({ kind: 'table', name, alias });
export const derived = (query: T.Query, alias: string): T.Derived => f({ kind: 'derived', query, alias });
export const join = (
  joinType: T.Join['join_type'],
  left: T.From,
  right: T.From,
  on: T.Expr | null = null,
): T.Join => f({ kind: 'join', join_type: joinType, left, right, on });

export const select = (parts: {
  columns: (T.SelectItem | T.Expr)[];
  from?: T.From | null;
  where?: T.Expr | null;
  groupBy?: T.Expr[];
  having?: T.Expr | null;
  distinct?: boolean;
}): T.Select =>
  f({
    kind: 'select',
    distinct: parts.distinct ?? false,
    columns: f(parts.columns.map((c) => ('kind' in c ? item(c) : c))),
    from: parts.from ?? null,
    where: parts.where ?? null,
    group_by: f(parts.groupBy ?? []),
    having: parts.having ?? null,
  });
export const setOp = (op: T.SetOp['op'], left: T.Body, right: T.Body, all = false): T.SetOp =>
  f({ kind: 'set_op', op, all, left, right });
export const query = (
  body: T.Body,
  rest: { with?: T.Cte[]; orderBy?: T.OrderItem[]; limit?: number | null; offset?: number | null } = {},
): T.Query =>
  f({
    kind: 'query',
    with: f((rest.with ?? []).map((c) => f(c))),
    body,
    order_by: f(rest.orderBy ?? []),
    limit: rest.limit ?? null,
    offset: rest.offset ?? null,
  });
export const cte = (name: string, q: T.Query): T.Cte => f({ name, query: q });
