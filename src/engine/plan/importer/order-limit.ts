/**
 * ORDER BY, LIMIT and OFFSET: what ends a query. Positions (`ORDER BY 2`) become the select item
 * they point at; SQLite's `LIMIT -1` and `LIMIT NULL` mean no limit.
 */
import type { LimitClause, Node, OrderByClause } from 'sql-parser-cst';
import * as b from '../build';
import type * as T from '../types';
import type { Reader } from './context';

/** The query made of a body and the clauses that follow it. */
export function finishQuery(
  r: Reader,
  withs: T.Cte[],
  body: T.Body,
  orderBy: OrderByClause | null,
  limitClause: LimitClause | null,
): T.Query {
  const order = orderBy ? orderBy.specifications.items.map((s) => orderItem(r, s, body)) : [];
  let limit: number | null = null;
  let offset: number | null = null;
  if (limitClause) {
    limit = readInteger(r, limitClause.count, 'LIMIT');
    if (limitClause.offset) offset = readInteger(r, limitClause.offset, 'OFFSET');
    if (limit !== null && limit < 0) limit = null; // SQLite's LIMIT -1 means no limit
  }
  return b.query(body, { with: withs, orderBy: order, limit, offset });
}

/** An integer constant (LIMIT, OFFSET, a frame offset); null for NULL. */
export function readInteger(r: Reader, node: Node | undefined, what: string): number | null {
  if (!node) return null;
  if (node.type === 'number_literal' && Number.isInteger(node.value)) return node.value;
  if (node.type === 'prefix_op_expr' && node.operator === '-' && node.expr.type === 'number_literal') {
    return -node.expr.value;
  }
  if (node.type === 'null_literal') return null;
  return r.fail(`a ${what} that is not an integer constant`);
}

/** One ORDER BY item of a query with `body` (also of a window, with an empty select as body). */
export function orderItem(r: Reader, spec: Node, body: T.Body): T.OrderItem {
  const node = spec.type === 'sort_specification' ? spec.expr : spec;
  const sort = spec.type === 'sort_specification' ? spec : null;
  const expr =
    node.type === 'number_literal' && Number.isInteger(node.value)
      ? positionalOrderItem(r, node.value, body)
      : r.expr(node);
  const direction = sort?.direction?.type === 'sort_direction_desc' ? 'desc' : 'asc';
  if (sort?.direction && sort.direction.type === 'sort_direction_using_operator') {
    r.fail(`ORDER BY ${r.text(sort.direction)}`);
  }
  let nulls: 'first' | 'last' | null = null;
  const nh = sort?.nullHandlingKw;
  if (nh) nulls = nh[1].name.toUpperCase() === 'FIRST' ? 'first' : 'last';
  return b.order(expr, direction, nulls);
}

function positionalOrderItem(r: Reader, position: number, body: T.Body): T.Expr {
  const it = leftmostSelect(body).columns[position - 1];
  if (!it) return r.fail(`ORDER BY position ${position} beyond the select list`);
  if (body.kind === 'select') return it.alias !== null ? b.col(it.alias) : it.expr;
  if (it.alias !== null) return b.col(it.alias);
  if (it.expr.kind === 'column') return b.col(it.expr.name);
  return r.fail('ORDER BY position of an unnamed expression in a set operation');
}

function leftmostSelect(body: T.Body): T.Select {
  let b = body;
  while (b.kind !== 'select') b = b.kind === 'set_op' ? b.left : b.body;
  return b;
}
