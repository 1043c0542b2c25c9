/**
 * UNION / INTERSECT / EXCEPT. The parser hangs a trailing ORDER BY / LIMIT on the rightmost
 * operand (`a UNION b ORDER BY x LIMIT n`) and a leading WITH on the leftmost; both belong to the
 * whole set operation.
 */
import type { CompoundSelectStmt, LimitClause, Node, OrderByClause, SelectStmt } from 'sql-parser-cst';
import * as b from '../build';
import type * as T from '../types';
import { words, type Reader } from './context';
import { finishQuery } from './order-limit';

type Clause = SelectStmt['clauses'][number];

const SET_OPS: Readonly<Record<string, T.SetOp['op']>> = {
  UNION: 'union',
  INTERSECT: 'intersect',
  EXCEPT: 'except',
};

export function readCompound(r: Reader, node: CompoundSelectStmt): T.Query {
  const whole = new SetOperation(r);
  const body = whole.setOp(node, true, true);
  return finishQuery(r, whole.withs, body, whole.orderBy, whole.limit);
}

class SetOperation {
  readonly withs: T.Cte[] = [];
  orderBy: OrderByClause | null = null;
  limit: LimitClause | null = null;

  constructor(private readonly r: Reader) {}

  setOp(n: CompoundSelectStmt, rightmost: boolean, leftmost: boolean): T.SetOp {
    const kws = words(n.operator);
    const op = Object.hasOwn(SET_OPS, kws[0]!) ? SET_OPS[kws[0]!] : undefined;
    if (!op) return this.r.fail(`the set operator ${kws.join(' ')}`);
    const left = this.operand(n.left, false, leftmost);
    const right = this.operand(n.right, rightmost, false);
    return b.setOp(op, left, right, kws.includes('ALL'));
  }

  private operand(n: Node, rightmost: boolean, leftmost: boolean): T.Body {
    if (n.type === 'compound_select_stmt') return this.r.nested(() => this.setOp(n, rightmost, leftmost));
    const plain = n.type === 'select_stmt' && !n.clauses.some((c) => c.type === 'paren_expr');
    const q = plain
      ? this.r.query({ ...n, clauses: this.ownClauses(n.clauses, rightmost, leftmost) })
      : this.r.query(n);
    return q.with.length || q.order_by.length || q.limit !== null || q.offset !== null ? q : q.body;
  }

  /** The clauses of an operand without those that belong to the whole (kept aside here). */
  private ownClauses(all: readonly Clause[], rightmost: boolean, leftmost: boolean): Clause[] {
    let clauses = [...all];
    if (leftmost) {
      const w = clauses.find((c) => c.type === 'with_clause');
      if (w) {
        const selectClauses = clauses.filter((c) => c.type === 'select_clause');
        this.withs.push(...this.r.query({ type: 'select_stmt', clauses: [w, ...selectClauses] }).with);
        clauses = clauses.filter((c) => c !== w);
      }
    }
    if (rightmost) {
      this.orderBy = clauses.find((c): c is OrderByClause => c.type === 'order_by_clause') ?? null;
      this.limit = clauses.find((c): c is LimitClause => c.type === 'limit_clause') ?? null;
      clauses = clauses.filter((c) => c.type !== 'order_by_clause' && c.type !== 'limit_clause');
    }
    return clauses;
  }
}
