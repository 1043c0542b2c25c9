/**
 * A query: a SELECT statement's clauses sorted out (WITH, the SELECT's own clauses, ORDER BY,
 * LIMIT), a parenthesised query, or a set operation. A clause the plan language has no place for
 * fails naming it.
 */
import type { LimitClause, Node, OrderByClause, SelectStmt } from 'sql-parser-cst';
import type * as T from '../types';
import type { Reader } from './context';
import { readWith } from './ctes';
import { finishQuery } from './order-limit';
import { readSelect, type SelectParts } from './select';
import { readCompound } from './set-operations';

export function readQuery(r: Reader, node: Node): T.Query {
  if (node.type === 'paren_expr') return r.query(node.expr);
  if (node.type === 'compound_select_stmt') return readCompound(r, node);
  if (node.type !== 'select_stmt') return r.fail(`${node.type} where a query was expected`);
  return readSelectStmt(r, node);
}

type Clause = SelectStmt['clauses'][number];

/** The clauses of one SELECT statement, by role. */
interface Clauses {
  withs: T.Cte[];
  /** A parenthesised query standing for the body (`(SELECT ..) ORDER BY ..`). */
  body: T.Body | null;
  readonly sel: SelectParts;
  orderBy: OrderByClause | null;
  limit: LimitClause | null;
}

const CLAUSES: {
  readonly [K in Clause['type']]?: (r: Reader, c: Extract<Clause, { type: K }>, to: Clauses) => void;
} = {
  with_clause: (r, c, to) => {
    to.withs = readWith(r, c);
  },
  paren_expr: (r, c, to) => {
    to.body = r.query(c.expr);
  },
  select_clause: (_, c, to) => {
    to.sel.select = c;
  },
  from_clause: (_, c, to) => {
    to.sel.from = c;
  },
  where_clause: (_, c, to) => {
    to.sel.where = c;
  },
  group_by_clause: (_, c, to) => {
    to.sel.groupBy = c;
  },
  having_clause: (_, c, to) => {
    to.sel.having = c;
  },
  order_by_clause: (_, c, to) => {
    to.orderBy = c;
  },
  limit_clause: (_, c, to) => {
    to.limit = c;
  },
};

function readSelectStmt(r: Reader, node: SelectStmt): T.Query {
  const to: Clauses = { withs: [], body: null, sel: {}, orderBy: null, limit: null };
  for (const c of node.clauses) {
    const sort = Object.hasOwn(CLAUSES, c.type)
      ? (CLAUSES[c.type] as (r: Reader, c: Clause, to: Clauses) => void)
      : undefined;
    if (!sort)
      r.fail(
        `the ${c.type
          .replace(/_clause$/, '')
          .replace(/_/g, ' ')
          .toUpperCase()} clause`,
      );
    sort(r, c, to);
  }
  const { withs, body, orderBy, limit } = to;
  if (body) return finishQuery(r, withs, body, orderBy, limit);
  // A bare USING column means the same in the select list, WHERE, GROUP BY, HAVING and ORDER BY.
  return r.inSelect(() => finishQuery(r, withs, readSelect(r, to.sel), orderBy, limit));
}
