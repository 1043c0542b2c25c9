/**
 * Expressions: names, literals, operators, CASE and CAST. Source-dialect meaning is made explicit
 * in the plan: SQLite's and MySQL's LIKE are case-insensitive, PostgreSQL's is not; MySQL's `||`
 * is OR; SQLite's "double-quoted" word that names no column is a string. Chains of AND, OR and
 * `||` become one n-ary node.
 */
import type {
  CaseExpr,
  DataType,
  Identifier,
  MemberExpr,
  Node,
  PostfixOpExpr,
  PrefixOpExpr,
} from 'sql-parser-cst';
import * as b from '../build';
import type * as T from '../types';
import { isQuery, readBy, words, type NodeReaders, type Reader } from './context';
import { readDatePart, readFunction } from './functions';
import { CAST_NAMES } from './names';

/** Every binary node the parser makes (its trigger-event variants included). */
type Binary = Extract<Node, { type: 'binary_expr' }>;

const READERS: NodeReaders<T.Expr> = {
  identifier: (r, node) => identifier(r, node),
  member_expr: (r, node) => member(r, node),
  all_columns: () => b.star(),
  string_literal: (_, node) => b.lit(node.value),
  number_literal: (_, node) => b.lit(node.value, /[.eE]/.test(node.text) ? 'float' : null),
  boolean_literal: (_, node) => b.lit(Boolean(node.value)),
  null_literal: () => b.lit(null),
  parameter: (_, node) => b.param(node.text.replace(/^[:@$]/, '')),
  paren_expr: (r, node) => {
    if (isQuery(node.expr)) return b.subquery(r.query(node.expr));
    if (node.expr.type === 'list_expr') return r.fail('a row value (a, b)');
    return r.expr(node.expr);
  },
  binary_expr: (r, node) => binary(r, node),
  prefix_op_expr: (r, node) => prefix(r, node),
  postfix_op_expr: (r, node) => postfix(r, node),
  between_expr: (r, node) =>
    b.between(r.expr(node.left), r.expr(node.begin), r.expr(node.end), words(node.betweenKw).includes('NOT')),
  case_expr: (r, node) => caseExpr(r, node),
  cast_expr: (r, node) => b.cast(r.expr(node.args.expr.expr), castType(r, node.args.expr.dataType)),
  cast_operator_expr: (r, node) => b.cast(r.expr(node.left), castType(r, node.right)),
  func_call: (r, node) => readFunction(r, node),
  extract_expr: (r, node) => {
    const unit = node.args.expr.unit;
    return readDatePart(r, unit.type === 'interval_unit' ? unit.unitKw.name : '?', node.args.expr.expr);
  },
};

export function readExpr(r: Reader, node: Node): T.Expr {
  return readBy(READERS, r, node, (n) => `the expression ${r.text(n)}`);
}

function identifier(r: Reader, node: Identifier): T.Expr {
  // SQLite reads a "double-quoted" word that names no column as a string literal (Spider relies on it).
  if (
    node.text.startsWith('"') &&
    r.dialect === 'sqlite' &&
    r.schema !== null &&
    !r.isSchemaColumn(node.name)
  ) {
    return b.lit(node.name);
  }
  return r.usingColumns().get(node.name.toLowerCase()) ?? b.col(node.name);
}

/** The prefix of a caller attribute's parameter name (`:user.region` is the parameter `user.region`). */
export const ATTRIBUTE_PARAM_PREFIX = 'user.';

function member(r: Reader, node: MemberExpr): T.Expr {
  if (
    r.attributeParams &&
    node.object.type === 'parameter' &&
    node.object.text === ':user' &&
    node.property.type === 'identifier'
  )
    return b.param(`${ATTRIBUTE_PARAM_PREFIX}${node.property.name}`);
  if (node.object.type !== 'identifier') return r.fail(`the reference ${r.text(node)}`);
  if (node.property.type === 'all_columns') return b.star(node.object.name);
  if (node.property.type === 'identifier') return b.col(node.property.name, node.object.name);
  return r.fail(`the reference ${r.text(node)}`);
}

/** The operands of a chain of one associative operator (`a AND b AND c`), read without recursing down it. */
function chain(r: Reader, node: Binary, op: string): T.Expr[] {
  const rights: Node[] = [];
  let left: Node = node;
  while (left.type === 'binary_expr' && words(left.operator).join(' ') === op) {
    rights.push(left.right);
    left = left.left;
  }
  return [left, ...rights.reverse()].map((n) => r.expr(n));
}

function binary(r: Reader, node: Binary): T.Expr {
  const op = words(node.operator).join(' ');
  const left = () => r.expr(node.left);
  const right = () => r.expr(node.right);
  switch (op) {
    case 'AND':
    case '&&':
      return flatten('and', chain(r, node, op));
    case 'OR':
      return flatten('or', chain(r, node, op));
    case '||':
      return r.dialect === 'mysql' ? flatten('or', chain(r, node, op)) : flattenConcat(chain(r, node, op));
    case '=':
    case '==':
      return b.cmp('=', left(), right());
    case '!=':
    case '<>':
      return b.cmp('<>', left(), right());
    case '<':
    case '<=':
    case '>':
    case '>=':
      return b.cmp(op, left(), right());
    case '+':
    case '-':
    case '*':
    case '/':
    case '%':
      return b.arith(op, left(), right());
    case 'DIV':
      return b.arith('/', b.cast(left(), 'integer'), b.cast(right(), 'integer'));
    case 'MOD':
      return b.arith('%', left(), right());
    case 'LIKE':
    case 'NOT LIKE':
    case 'ILIKE':
    case 'NOT ILIKE': {
      const ci = op.endsWith('ILIKE') || r.dialect === 'sqlite' || r.dialect === 'mysql';
      return b.like(left(), right(), op.startsWith('NOT'), ci);
    }
    case 'IN':
    case 'NOT IN':
      return inExpr(r, node, op === 'NOT IN');
    case 'IS':
    case 'IS NOT':
      if (node.right.type === 'null_literal') return b.isNull(left(), op === 'IS NOT');
      return r.fail(`IS ${r.text(node.right)} (only IS [NOT] NULL)`);
    default:
      return r.fail(`the operator ${op}`);
  }
}

function inExpr(r: Reader, node: Binary, negated: boolean): T.Expr {
  const list = node.right;
  if (list.type === 'paren_expr' && isQuery(list.expr))
    return b.inQuery(r.expr(node.left), r.query(list.expr), negated);
  if (list.type === 'paren_expr') {
    const items = list.expr.type === 'list_expr' ? list.expr.items : [list.expr];
    const subject = r.expr(node.left);
    return b.inList(
      subject,
      items.map((i) => r.expr(i)),
      negated,
    );
  }
  return r.fail(`IN ${r.text(list)}`);
}

function prefix(r: Reader, node: PrefixOpExpr): T.Expr {
  const op = words(node.operator).join(' ');
  switch (op) {
    case '-':
      if (node.expr.type === 'number_literal') {
        return b.lit(-node.expr.value, /[.eE]/.test(node.expr.text) ? 'float' : null);
      }
      return b.negate(r.expr(node.expr));
    case '+':
      return r.expr(node.expr);
    case 'NOT':
    case '!': {
      const inner = node.expr;
      if (inner.type === 'prefix_op_expr' && words(inner.operator).join(' ') === 'EXISTS') {
        return b.exists(r.query(inner.expr), true);
      }
      return b.not(r.expr(inner));
    }
    case 'EXISTS':
      return b.exists(r.query(node.expr));
    default:
      return r.fail(`the prefix operator ${op}`);
  }
}

function postfix(r: Reader, node: PostfixOpExpr): T.Expr {
  const op = words(node.operator).join(' ');
  if (op === 'ISNULL' || op === 'IS NULL') return b.isNull(r.expr(node.expr));
  if (op === 'NOTNULL' || op === 'NOT NULL' || op === 'IS NOT NULL') return b.isNull(r.expr(node.expr), true);
  return r.fail(`the operator ${op}`);
}

function caseExpr(r: Reader, node: CaseExpr): T.Expr {
  const whens: { when: T.Expr; then: T.Expr }[] = [];
  let otherwise: T.Expr | null = null;
  for (const c of node.clauses) {
    if (c.type === 'case_when') whens.push({ when: r.expr(c.condition), then: r.expr(c.result) });
    else otherwise = r.expr(c.result);
  }
  return b.caseWhen(node.expr ? r.expr(node.expr) : null, whens, otherwise);
}

function castType(r: Reader, dt: DataType): T.Cast['to'] {
  const name =
    dt.type === 'data_type_name'
      ? (Array.isArray(dt.name) ? dt.name : [dt.name]).map((k) => k.name.toUpperCase()).join(' ')
      : '';
  const hit = CAST_NAMES.find(([re]) => re.test(name));
  if (!hit) return r.fail(`CAST to ${name || r.text(dt)}`);
  return hit[1];
}

function flatten(kind: 'and' | 'or', args: T.Expr[]): T.Expr {
  const out: T.Expr[] = [];
  for (const a of args) {
    if (a.kind === kind) out.push(...a.args);
    else out.push(a);
  }
  return kind === 'and' ? b.and(...out) : b.or(...out);
}

function flattenConcat(args: T.Expr[]): T.Expr {
  return b.concat(...args.flatMap((a) => (a.kind === 'concat' ? a.args : [a])));
}
