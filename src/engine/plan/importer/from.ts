/**
 * FROM and joins: tables (a schema prefix is dropped: the plan names tables in the datasource's
 * default schema), aliases, derived tables, and joins of every kind. With the schema,
 * `JOIN .. USING (c)` becomes an ON condition and a bare `c` the column it stands for.
 */
import type { JoinExpr, JoinUsingSpecification, MemberExpr, Node } from 'sql-parser-cst';
import * as b from '../build';
import { relationsOf } from '../inference';
import { Scope, type Relation } from '../scope';
import type * as T from '../types';
import { isQuery, readBy, words, type NodeReaders, type Reader } from './context';

const READERS: NodeReaders<T.From> = {
  identifier: (_, node) => b.table(node.name),
  member_expr: (r, node) => b.table(tableName(r, node)),
  alias: (r, node) => {
    const alias = node.alias.name;
    const inner = node.expr;
    if (inner.type === 'identifier') return b.table(inner.name, alias);
    if (inner.type === 'member_expr') return b.table(tableName(r, inner), alias);
    if (inner.type === 'paren_expr' && isQuery(inner.expr)) return b.derived(r.query(inner.expr), alias);
    if (inner.type === 'paren_expr') return r.from(inner.expr);
    return r.fail(`${inner.type} in FROM`);
  },
  paren_expr: (r, node) => {
    if (isQuery(node.expr)) return b.derived(r.query(node.expr), r.nextDerivedAlias());
    return r.from(node.expr);
  },
  join_expr: (r, node) => readJoin(r, node),
};

export function readFrom(r: Reader, node: Node): T.From {
  return readBy(READERS, r, node, (n) => `${n.type.replace(/_/g, ' ')} in FROM`);
}

function tableName(r: Reader, node: MemberExpr): string {
  // schema.table: the plan names tables within the datasource's default schema.
  if (node.property.type === 'identifier' && node.object.type === 'identifier') return node.property.name;
  return r.fail(`the table reference ${r.text(node)}`);
}

function joinType(node: JoinExpr): T.Join['join_type'] {
  const kws = node.operator === ',' ? [','] : words(node.operator);
  if (kws.includes(',')) return 'cross';
  if (kws.includes('LEFT')) return 'left';
  if (kws.includes('RIGHT')) return 'right';
  if (kws.includes('FULL')) return 'full';
  if (kws.includes('CROSS')) return 'cross';
  return 'inner';
}

function readJoin(r: Reader, node: JoinExpr): T.Join {
  const left = r.from(node.left);
  const right = r.from(node.right);
  if (node.operator !== ',' && words(node.operator).includes('NATURAL')) r.fail('NATURAL JOIN');
  const type = joinType(node);
  const spec = node.specification;
  if (!spec) return b.join(type === 'inner' ? 'cross' : type, left, right, null);
  const kind = type === 'cross' ? 'inner' : type;
  if (spec.type === 'join_using_specification')
    return b.join(kind, left, right, using(r, spec, kind, left, right));
  return b.join(kind, left, right, r.expr(spec.expr));
}

/**
 * `left JOIN right USING (c, ..)` -> `l.c = r.c AND ..`, where l and r are the relations on each
 * side that have column c (the schema says which). A bare `c` in the select then means l.c
 * (r.c for a RIGHT JOIN, COALESCE(l.c, r.c) for a FULL JOIN), as USING defines it.
 */
function using(
  r: Reader,
  spec: JoinUsingSpecification,
  kind: T.Join['join_type'],
  left: T.From,
  right: T.From,
): T.Expr {
  if (!r.schema) return r.fail('JOIN ... USING without the schema (write it as ON)');
  const root = Scope.root(r.schema);
  const names = spec.expr.expr.items.map((n: Node) => {
    if (n.type !== 'identifier') return r.fail(`the USING item ${r.text(n)}`);
    return n.name;
  });
  const sideOf = (from: T.From, name: string, side: string): { rel: Relation; column: string } => {
    const hits = relationsOf(from, root).flatMap((rel) => {
      const c = rel.columns?.find((x) => x.name.toLowerCase() === name.toLowerCase());
      return c ? [{ rel, column: c.name }] : [];
    });
    if (hits.length !== 1) {
      r.fail(
        `JOIN ... USING (${name}): ${hits.length ? 'several' : 'no'} ${side} relation${hits.length ? 's' : ''} with that column (write it as ON)`,
      );
    }
    return hits[0]!;
  };
  const usingColumns = r.usingColumns();
  const conditions = names.map((name) => {
    const l = sideOf(left, name, 'left');
    const rr = sideOf(right, name, 'right');
    const lc = b.col(l.column, l.rel.alias);
    const rc = b.col(rr.column, rr.rel.alias);
    usingColumns.set(
      name.toLowerCase(),
      kind === 'right' ? rc : kind === 'full' ? b.fn('coalesce', lc, rc) : lc,
    );
    return b.cmp('=', lc, rc);
  });
  return conditions.length === 1 ? conditions[0]! : b.and(...conditions);
}
