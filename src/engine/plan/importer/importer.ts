/**
 * SQL -> plan. Parses one SELECT statement with sql-parser-cst (STACK.md: it parses SQLite,
 * PostgreSQL and MySQL including window frames; DuckDB's SELECT syntax is read as PostgreSQL's)
 * and maps its syntax tree onto plan nodes. Whatever the plan language cannot represent fails with
 * SQL_IMPORT_UNSUPPORTED naming the construct; unparseable text fails with SQL_PARSE_ERROR.
 *
 * Source-dialect meaning is made explicit in the plan: SQLite's and MySQL's LIKE are
 * case-insensitive, PostgreSQL's is not; MySQL's `||` is OR; SQLite's "double-quoted" word that
 * names no column is a string; ORDER BY / GROUP BY positions become the expressions they point at;
 * `EXTRACT(YEAR FROM x)` and `date_part('year', x)` become the plan's date-part functions; with the
 * schema, `JOIN .. USING (c)` becomes an ON condition and a bare `c` the column it stands for.
 */
import { parse, type Node } from 'sql-parser-cst';
import type { Dialect, SchemaSnapshot } from '../../datasources/schema';
import * as b from '../build';
import { PlanError, importUnsupported } from '../errors';
import { WINDOW_FUNCTIONS } from '../ast';
import type { ScalarFunctionName } from '../functions';
import { relationsOf } from '../inference';
import { Scope, type Relation } from '../scope';
import type * as T from '../types';

type Any = any;

const PARSER_DIALECT: Record<Dialect, 'sqlite' | 'postgresql' | 'mysql'> = {
  sqlite: 'sqlite',
  postgres: 'postgresql',
  duckdb: 'postgresql',
  mysql: 'mysql',
};

const FUNCTION_ALIASES: Record<string, ScalarFunctionName> = {
  lower: 'lower',
  lcase: 'lower',
  upper: 'upper',
  ucase: 'upper',
  length: 'length',
  char_length: 'length',
  trim: 'trim',
  ltrim: 'ltrim',
  rtrim: 'rtrim',
  substr: 'substring',
  substring: 'substring',
  replace: 'replace',
  abs: 'abs',
  round: 'round',
  floor: 'floor',
  ceil: 'ceil',
  ceiling: 'ceil',
  coalesce: 'coalesce',
  ifnull: 'coalesce',
  nullif: 'nullif',
  year: 'year',
  month: 'month',
  day: 'day',
  hour: 'hour',
  minute: 'minute',
  second: 'second',
  current_date: 'current_date',
};

/** EXTRACT / date_part units the plan's date-part functions express (plural spellings are DuckDB's). */
const DATE_PART_UNITS: Record<string, ScalarFunctionName> = {
  year: 'year',
  years: 'year',
  month: 'month',
  months: 'month',
  day: 'day',
  days: 'day',
  hour: 'hour',
  hours: 'hour',
  minute: 'minute',
  minutes: 'minute',
  second: 'second',
  seconds: 'second',
};

/** strftime formats whose text equals the text of an integer date part (zero-padded ones do not). */
const STRFTIME_PARTS: Record<string, ScalarFunctionName> = { '%Y': 'year' };

const CAST_NAMES: [RegExp, T.Cast['to']][] = [
  [/^(INT|INTEGER|BIGINT|SMALLINT|TINYINT|SIGNED|UNSIGNED|INT2|INT4|INT8|HUGEINT)$/, 'integer'],
  [/^(REAL|FLOAT|DOUBLE|DOUBLE PRECISION|FLOAT4|FLOAT8)$/, 'float'],
  [/^(NUMERIC|DECIMAL|NUMBER)$/, 'decimal'],
  [/^(TEXT|VARCHAR|CHAR|STRING|CHARACTER VARYING|CHARACTER|NVARCHAR|CLOB)$/, 'text'],
  [/^(BOOLEAN|BOOL)$/, 'boolean'],
  [/^DATE$/, 'date'],
  [/^(TIMESTAMP|DATETIME)$/, 'timestamp'],
];

export function importSql(sql: string, dialect: Dialect, schema: SchemaSnapshot | null = null): T.Query {
  let cst: Any;
  try {
    cst = parse(sql, { dialect: PARSER_DIALECT[dialect], includeRange: true, paramTypes: [':name'] });
  } catch (err) {
    const message = (err as Error).message;
    // The parser's message ends with `--> file:line:column` and the line with a caret.
    const at = /--> [^\n]*?:(\d+):(\d+)/.exec(message);
    const where = at ? ` at line ${at[1]}, column ${at[2]}` : '';
    throw new PlanError(
      'SQL_PARSE_ERROR',
      `The SQL does not parse as ${dialect}${where}: ${message.split('\n')[0]}`,
      at ? { dialect, line: Number(at[1]), column: Number(at[2]) } : { dialect },
    );
  }
  const statements = (cst.statements as Any[]).filter((s) => s.type !== 'empty');
  if (statements.length !== 1) {
    throw importUnsupported(statements.length === 0 ? 'an empty statement' : 'several statements', sql);
  }
  return new Importer(dialect, schema, sql).statement(statements[0]);
}

/** What a bare column name stands for in one SELECT whose FROM joins with USING. */
type UsingColumns = Map<string, T.Expr>;

class Importer {
  private readonly columnNames: Set<string>;
  private derivedCount = 0;
  /** One entry per SELECT being read, innermost last. */
  private readonly usingStack: UsingColumns[] = [];

  constructor(
    private readonly dialect: Dialect,
    private readonly schema: SchemaSnapshot | null,
    private readonly sql: string,
  ) {
    this.columnNames = new Set(
      (schema?.tables ?? []).flatMap((t) => t.columns.map((c) => c.name.toLowerCase())),
    );
    this.hasSchema = schema !== null;
  }

  private readonly hasSchema: boolean;

  private fail(construct: string): never {
    throw importUnsupported(construct, this.sql);
  }

  private text(node: Any): string {
    if (node?.range) return this.sql.slice(node.range[0], node.range[1]);
    return String(node?.text ?? node?.type ?? '?');
  }

  statement(node: Any): T.Query {
    if (node.type === 'select_stmt' || node.type === 'compound_select_stmt') return this.query(node);
    this.fail(
      `a ${String(node.type)
        .replace(/_stmt$/, '')
        .replace(/_/g, ' ')
        .toUpperCase()} statement (only SELECT)`,
    );
  }

  // ---------- queries ----------

  private query(node: Any): T.Query {
    if (node.type === 'paren_expr') return this.query(node.expr);
    if (node.type === 'compound_select_stmt') return this.compound(node);
    if (node.type !== 'select_stmt') this.fail(`${node.type} where a query was expected`);
    const clauses = node.clauses as Any[];
    let withs: T.Cte[] = [];
    let body: T.Body | null = null;
    const sel: Any = {};
    let orderBy: Any = null;
    let limit: Any = null;
    for (const c of clauses) {
      switch (c.type) {
        case 'with_clause':
          if (c.recursiveKw) this.fail('WITH RECURSIVE');
          withs = (c.tables.items as Any[]).map((t) => {
            if (t.columns) this.fail('a CTE column list');
            if (t.materializedKw) this.fail('MATERIALIZED CTEs');
            return b.cte(t.table.name, this.query(t.expr));
          });
          break;
        case 'paren_expr':
          body = this.query(c.expr);
          break;
        case 'select_clause':
          sel.select = c;
          break;
        case 'from_clause':
          sel.from = c;
          break;
        case 'where_clause':
          sel.where = c;
          break;
        case 'group_by_clause':
          sel.groupBy = c;
          break;
        case 'having_clause':
          sel.having = c;
          break;
        case 'order_by_clause':
          orderBy = c;
          break;
        case 'limit_clause':
          limit = c;
          break;
        default:
          this.fail(
            `the ${String(c.type)
              .replace(/_clause$/, '')
              .replace(/_/g, ' ')
              .toUpperCase()} clause`,
          );
      }
    }
    if (body) return this.finish(withs, body, orderBy, limit);
    // A bare USING column means the same in the select list, WHERE, GROUP BY, HAVING and ORDER BY.
    this.usingStack.push(new Map());
    try {
      return this.finish(withs, this.select(sel), orderBy, limit);
    } finally {
      this.usingStack.pop();
    }
  }

  private finish(withs: T.Cte[], body: T.Body, orderBy: Any, limitClause: Any): T.Query {
    const order = orderBy ? (orderBy.specifications.items as Any[]).map((s) => this.orderItem(s, body)) : [];
    let limit: number | null = null;
    let offset: number | null = null;
    if (limitClause) {
      limit = this.integer(limitClause.count, 'LIMIT');
      if (limitClause.offset) offset = this.integer(limitClause.offset, 'OFFSET');
      if (limit !== null && limit < 0) limit = null; // SQLite's LIMIT -1 means no limit
    }
    return b.query(body, { with: withs, orderBy: order, limit, offset });
  }

  private integer(node: Any, what: string): number | null {
    if (!node) return null;
    if (node.type === 'number_literal' && Number.isInteger(node.value)) return node.value as number;
    if (node.type === 'prefix_op_expr' && node.operator === '-' && node.expr.type === 'number_literal') {
      return -(node.expr.value as number);
    }
    if (node.type === 'all_columns' || node.type === 'null_literal') return null; // LIMIT ALL
    this.fail(`a ${what} that is not an integer constant`);
  }

  /** `a UNION b ORDER BY x LIMIT n`: the trailing ORDER BY/LIMIT (parsed onto `b`) belong to the whole. */
  private compound(node: Any): T.Query {
    const withs: T.Cte[] = [];
    let tail: { orderBy: Any; limit: Any } = { orderBy: null, limit: null };
    const operand = (n: Any, rightmost: boolean, leftmost: boolean): T.Body => {
      if (n.type === 'compound_select_stmt') return setop(n, rightmost, leftmost);
      if (n.type === 'select_stmt' && !(n.clauses as Any[]).some((c) => c.type === 'paren_expr')) {
        let clauses = n.clauses as Any[];
        if (leftmost) {
          const w = clauses.find((c) => c.type === 'with_clause');
          if (w) {
            withs.push(
              ...this.query({
                type: 'select_stmt',
                clauses: [w, ...clauses.filter((c) => c.type === 'select_clause')],
              }).with,
            );
            clauses = clauses.filter((c) => c !== w);
          }
        }
        if (rightmost) {
          tail = {
            orderBy: clauses.find((c) => c.type === 'order_by_clause') ?? null,
            limit: clauses.find((c) => c.type === 'limit_clause') ?? null,
          };
          clauses = clauses.filter((c) => c.type !== 'order_by_clause' && c.type !== 'limit_clause');
        }
        const q = this.query({ ...n, clauses });
        return q.with.length || q.order_by.length || q.limit !== null || q.offset !== null ? q : q.body;
      }
      const q = this.query(n);
      return q.with.length || q.order_by.length || q.limit !== null || q.offset !== null ? q : q.body;
    };
    const setop = (n: Any, rightmost: boolean, leftmost: boolean): T.SetOp => {
      const words = (Array.isArray(n.operator) ? n.operator : [n.operator]).map((k: Any) =>
        String(k.name).toUpperCase(),
      );
      const op =
        words[0] === 'UNION'
          ? 'union'
          : words[0] === 'INTERSECT'
            ? 'intersect'
            : words[0] === 'EXCEPT'
              ? 'except'
              : null;
      if (!op) this.fail(`the set operator ${words.join(' ')}`);
      const left = operand(n.left, false, leftmost);
      const right = operand(n.right, rightmost, false);
      return b.setOp(op, left, right, words.includes('ALL'));
    };
    const body = setop(node, true, true);
    return this.finish(withs, body, tail.orderBy, tail.limit);
  }

  private select(parts: Any): T.Select {
    if (!parts.select) this.fail('a query without a SELECT clause');
    const mods = (parts.select.modifiers as Any[]).map((m) =>
      m.type === 'select_distinct'
        ? 'DISTINCT'
        : m.type === 'select_all'
          ? 'ALL'
          : String(m.name ?? m.type).toUpperCase(),
    );
    const unknownMod = mods.find((m) => m !== 'DISTINCT' && m !== 'ALL');
    if (unknownMod) this.fail(`the SELECT modifier ${unknownMod}`);
    if (parts.select.distinctOn) this.fail('DISTINCT ON');
    // FROM first: its USING joins decide what bare column names in the other clauses mean.
    const from = parts.from ? this.from(parts.from.expr) : null;
    const columns = (parts.select.columns.items as Any[]).map((c) => this.selectItem(c));
    if (this.usingColumns().size && columns.some((c) => c.expr.kind === 'star' && c.expr.table === null)) {
      // USING shows each joined column once, ON twice: * would change the output columns.
      this.fail('SELECT * over JOIN ... USING (list the columns)');
    }
    const groupItems: Any[] = parts.groupBy ? (parts.groupBy.columns.items ?? parts.groupBy.columns) : [];
    if (parts.groupBy?.withRollupKw || parts.groupBy?.modifiers?.length)
      this.fail('GROUP BY modifiers (ROLLUP/CUBE)');
    const groupBy = (Array.isArray(groupItems) ? groupItems : []).map(
      (g) => this.positional(g, columns) ?? this.expr(g),
    );
    return b.select({
      distinct: mods.includes('DISTINCT'),
      columns,
      from,
      where: parts.where ? this.expr(parts.where.expr) : null,
      groupBy,
      having: parts.having ? this.expr(parts.having.expr) : null,
    });
  }

  private selectItem(c: Any): T.SelectItem {
    if (c.type === 'alias') return b.item(this.expr(c.expr), c.alias.name);
    return b.item(this.expr(c));
  }

  /** A GROUP BY / ORDER BY position (`ORDER BY 2`) names that select item. */
  private positional(node: Any, columns: readonly T.SelectItem[]): T.Expr | null {
    if (node.type !== 'number_literal' || !Number.isInteger(node.value)) return null;
    const it = columns[(node.value as number) - 1];
    if (!it) this.fail(`position ${node.value} beyond the select list`);
    return it.alias !== null ? b.col(it.alias) : it.expr;
  }

  private orderItem(spec: Any, body: T.Body): T.OrderItem {
    const node = spec.type === 'sort_specification' ? spec.expr : spec;
    let expr: T.Expr;
    const cols = leftmostSelect(body).columns;
    if (node.type === 'number_literal' && Number.isInteger(node.value)) {
      const it = cols[(node.value as number) - 1];
      if (!it) this.fail(`ORDER BY position ${node.value} beyond the select list`);
      if (body.kind === 'select') expr = it.alias !== null ? b.col(it.alias) : it.expr;
      else if (it.alias !== null) expr = b.col(it.alias);
      else if (it.expr.kind === 'column') expr = b.col(it.expr.name);
      else this.fail('ORDER BY position of an unnamed expression in a set operation');
    } else expr = this.expr(node);
    const direction = spec.direction?.type === 'sort_direction_desc' ? 'desc' : 'asc';
    if (spec.direction && !['sort_direction_desc', 'sort_direction_asc'].includes(spec.direction.type)) {
      this.fail(`ORDER BY ${this.text(spec.direction)}`);
    }
    let nulls: 'first' | 'last' | null = null;
    const nh = spec.nullHandlingKw as Any[] | undefined;
    if (nh) nulls = String(nh[1]?.name).toUpperCase() === 'FIRST' ? 'first' : 'last';
    return b.order(expr, direction, nulls);
  }

  // ---------- FROM ----------

  private from(node: Any): T.From {
    switch (node.type) {
      case 'identifier':
        return b.table(node.name);
      case 'member_expr':
        return b.table(this.tableName(node));
      case 'alias': {
        const alias: string = node.alias.name;
        const inner = node.expr;
        if (inner.type === 'identifier') return b.table(inner.name, alias);
        if (inner.type === 'member_expr') return b.table(this.tableName(inner), alias);
        if (inner.type === 'paren_expr' && isQuery(inner.expr))
          return b.derived(this.query(inner.expr), alias);
        if (inner.type === 'paren_expr') return this.from(inner.expr);
        return this.fail(`${inner.type} in FROM`);
      }
      case 'paren_expr':
        if (isQuery(node.expr)) return b.derived(this.query(node.expr), `_derived${++this.derivedCount}`);
        return this.from(node.expr);
      case 'join_expr':
        return this.join(node);
      default:
        return this.fail(`${String(node.type).replace(/_/g, ' ')} in FROM`);
    }
  }

  private tableName(node: Any): string {
    // schema.table: the plan names tables within the datasource's default schema.
    if (node.property?.type === 'identifier' && node.object?.type === 'identifier') return node.property.name;
    return this.fail(`the table reference ${this.text(node)}`);
  }

  private join(node: Any): T.Join {
    const left = this.from(node.left);
    const right = this.from(node.right);
    const words: string[] =
      node.operator === ','
        ? [',']
        : (Array.isArray(node.operator) ? node.operator : [node.operator]).map((k: Any) =>
            String(k.name).toUpperCase(),
          );
    if (words.includes('NATURAL')) this.fail('NATURAL JOIN');
    const type: T.Join['join_type'] = words.includes(',')
      ? 'cross'
      : words.includes('LEFT')
        ? 'left'
        : words.includes('RIGHT')
          ? 'right'
          : words.includes('FULL')
            ? 'full'
            : words.includes('CROSS')
              ? 'cross'
              : 'inner';
    const spec = node.specification;
    if (!spec) return b.join(type === 'inner' ? 'cross' : type, left, right, null);
    const joinType = type === 'cross' ? 'inner' : type;
    if (spec.type === 'join_using_specification') {
      return b.join(joinType, left, right, this.using(spec, joinType, left, right));
    }
    return b.join(joinType, left, right, this.expr(spec.expr));
  }

  /**
   * `left JOIN right USING (c, ..)` -> `l.c = r.c AND ..`, where l and r are the relations on each
   * side that have column c (the schema says which). A bare `c` in the select then means l.c
   * (r.c for a RIGHT JOIN, COALESCE(l.c, r.c) for a FULL JOIN), as USING defines it.
   */
  private using(spec: Any, joinType: T.Join['join_type'], left: T.From, right: T.From): T.Expr {
    if (!this.schema) this.fail('JOIN ... USING without the schema (write it as ON)');
    const list = spec.expr?.type === 'paren_expr' ? spec.expr.expr : spec.expr;
    const names: string[] = (list?.type === 'list_expr' ? (list.items as Any[]) : [list]).map((n: Any) => {
      if (n?.type !== 'identifier') this.fail(`the USING item ${this.text(n)}`);
      return String(n.name);
    });
    const root = Scope.root(this.schema);
    const sideOf = (from: T.From, name: string, side: string): { rel: Relation; column: string } => {
      const hits = relationsOf(from, root).flatMap((rel) => {
        const c = rel.columns?.find((x) => x.name.toLowerCase() === name.toLowerCase());
        return c ? [{ rel, column: c.name }] : [];
      });
      if (hits.length !== 1) {
        this.fail(
          `JOIN ... USING (${name}): ${hits.length ? 'several' : 'no'} ${side} relation${hits.length ? 's' : ''} with that column (write it as ON)`,
        );
      }
      return hits[0]!;
    };
    const using = this.usingColumns();
    const conditions = names.map((name) => {
      const l = sideOf(left, name, 'left');
      const r = sideOf(right, name, 'right');
      const lc = b.col(l.column, l.rel.alias);
      const rc = b.col(r.column, r.rel.alias);
      using.set(
        name.toLowerCase(),
        joinType === 'right' ? rc : joinType === 'full' ? b.fn('coalesce', lc, rc) : lc,
      );
      return b.cmp('=', lc, rc);
    });
    return conditions.length === 1 ? conditions[0]! : b.and(...conditions);
  }

  private usingColumns(): UsingColumns {
    return this.usingStack[this.usingStack.length - 1] ?? new Map();
  }

  // ---------- expressions ----------

  private expr(node: Any): T.Expr {
    switch (node.type) {
      case 'identifier':
        return this.identifier(node);
      case 'member_expr':
        return this.member(node);
      case 'all_columns':
        return b.star();
      case 'string_literal':
        return b.lit(node.value as string);
      case 'number_literal': {
        const isFloat = /[.eE]/.test(String(node.text));
        return b.lit(node.value as number, isFloat ? 'float' : null);
      }
      case 'boolean_literal':
        return b.lit(Boolean(node.value));
      case 'null_literal':
        return b.lit(null);
      case 'parameter': {
        const name = String(node.text).replace(/^[:@$]/, '');
        return b.param(name);
      }
      case 'paren_expr':
        if (isQuery(node.expr)) return b.subquery(this.query(node.expr));
        if (node.expr.type === 'list_expr') this.fail('a row value (a, b)');
        return this.expr(node.expr);
      case 'binary_expr':
        return this.binary(node);
      case 'prefix_op_expr':
        return this.prefix(node);
      case 'postfix_op_expr': {
        const op = words(node.operator).join(' ');
        if (op === 'ISNULL' || op === 'IS NULL') return b.isNull(this.expr(node.expr));
        if (op === 'NOTNULL' || op === 'NOT NULL' || op === 'IS NOT NULL')
          return b.isNull(this.expr(node.expr), true);
        return this.fail(`the operator ${op}`);
      }
      case 'between_expr': {
        const negated = words(node.betweenKw).includes('NOT');
        return b.between(this.expr(node.left), this.expr(node.begin), this.expr(node.end), negated);
      }
      case 'case_expr':
        return this.caseExpr(node);
      case 'cast_expr':
        return b.cast(this.expr(node.args.expr.expr), this.castType(node.args.expr.dataType));
      case 'cast_operator_expr':
        return b.cast(this.expr(node.left), this.castType(node.right));
      case 'func_call':
        return this.func(node);
      case 'exists_expr':
        return b.exists(this.query(node.expr));
      case 'extract_expr':
        return this.datePart(String(node.args?.expr?.unit?.unitKw?.name ?? '?'), node.args?.expr?.expr);
      default:
        return this.fail(`the expression ${this.text(node)}`);
    }
  }

  private identifier(node: Any): T.Expr {
    const raw = String(node.text);
    // SQLite reads a "double-quoted" word that names no column as a string literal (Spider relies on it).
    if (
      raw.startsWith('"') &&
      this.dialect === 'sqlite' &&
      this.hasSchema &&
      !this.columnNames.has(String(node.name).toLowerCase())
    ) {
      return b.lit(node.name as string);
    }
    return this.usingColumns().get(String(node.name).toLowerCase()) ?? b.col(node.name);
  }

  private member(node: Any): T.Expr {
    if (node.object?.type !== 'identifier') return this.fail(`the reference ${this.text(node)}`);
    if (node.property?.type === 'all_columns') return b.star(node.object.name);
    if (node.property?.type === 'identifier') return b.col(node.property.name, node.object.name);
    return this.fail(`the reference ${this.text(node)}`);
  }

  private binary(node: Any): T.Expr {
    const op = words(node.operator).join(' ');
    const left = () => this.expr(node.left);
    const right = () => this.expr(node.right);
    switch (op) {
      case 'AND':
      case '&&':
        return flatten('and', [left(), right()]);
      case 'OR':
        return flatten('or', [left(), right()]);
      case '||':
        return this.dialect === 'mysql' ? flatten('or', [left(), right()]) : flattenConcat([left(), right()]);
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
        if (node.right?.type === 'escape_expr') this.fail('LIKE ... ESCAPE');
        const ci = op.endsWith('ILIKE') || this.dialect === 'sqlite' || this.dialect === 'mysql';
        return b.like(left(), right(), op.startsWith('NOT'), ci);
      }
      case 'IN':
      case 'NOT IN': {
        const r = node.right;
        const negated = op === 'NOT IN';
        if (r.type === 'paren_expr' && isQuery(r.expr)) return b.inQuery(left(), this.query(r.expr), negated);
        if (r.type === 'paren_expr') {
          const items = r.expr.type === 'list_expr' ? (r.expr.items as Any[]) : [r.expr];
          return b.inList(
            left(),
            items.map((i) => this.expr(i)),
            negated,
          );
        }
        return this.fail(`IN ${this.text(r)}`);
      }
      case 'IS':
      case 'IS NOT':
        if (node.right.type === 'null_literal') return b.isNull(left(), op === 'IS NOT');
        return this.fail(`IS ${this.text(node.right)} (only IS [NOT] NULL)`);
      default:
        return this.fail(`the operator ${op}`);
    }
  }

  private prefix(node: Any): T.Expr {
    const op = words(node.operator).join(' ');
    switch (op) {
      case '-':
        if (node.expr.type === 'number_literal') {
          const isFloat = /[.eE]/.test(String(node.expr.text));
          return b.lit(-(node.expr.value as number), isFloat ? 'float' : null);
        }
        return b.negate(this.expr(node.expr));
      case '+':
        return this.expr(node.expr);
      case 'NOT':
      case '!': {
        const inner = node.expr;
        if (inner.type === 'prefix_op_expr' && words(inner.operator).join(' ') === 'EXISTS') {
          return b.exists(this.query(inner.expr.expr ?? inner.expr), true);
        }
        return b.not(this.expr(inner));
      }
      case 'EXISTS':
        return b.exists(this.query(node.expr));
      default:
        return this.fail(`the prefix operator ${op}`);
    }
  }

  private caseExpr(node: Any): T.Expr {
    const whens: { when: T.Expr; then: T.Expr }[] = [];
    let otherwise: T.Expr | null = null;
    for (const c of node.clauses as Any[]) {
      if (c.type === 'case_when') whens.push({ when: this.expr(c.condition), then: this.expr(c.result) });
      else if (c.type === 'case_else') otherwise = this.expr(c.result);
    }
    return b.caseWhen(node.expr ? this.expr(node.expr) : null, whens, otherwise);
  }

  private castType(dt: Any): T.Cast['to'] {
    const name = (Array.isArray(dt?.name) ? dt.name : [dt?.name])
      .map((k: Any) => String(k?.name ?? k?.text ?? '').toUpperCase())
      .join(' ');
    const hit = CAST_NAMES.find(([re]) => re.test(name));
    if (!hit) this.fail(`CAST to ${name || this.text(dt)}`);
    return hit[1];
  }

  private func(node: Any): T.Expr {
    if (node.name?.type !== 'identifier') this.fail(`the function ${this.text(node.name)}`);
    const name = String(node.name.name).toLowerCase();
    if (node.filter) this.fail('an aggregate FILTER clause');
    const argsNode = node.args?.expr;
    const distinct = Boolean(argsNode?.distinctKw);
    const rawArgs: Any[] = argsNode?.args?.items ?? [];
    if (argsNode?.orderBy || argsNode?.limit) this.fail(`ORDER BY inside ${name}()`);
    if (node.over) return this.window(name, rawArgs, node.over);
    if (['count', 'sum', 'avg', 'min', 'max'].includes(name) && (name === 'count' || rawArgs.length === 1)) {
      const fn = name as T.Aggregate['fn'];
      if (rawArgs.length === 0 || (rawArgs.length === 1 && rawArgs[0].type === 'all_columns')) {
        if (fn !== 'count') this.fail(`${name}(*)`);
        return b.countStar();
      }
      if (rawArgs.length !== 1) this.fail(`${name} with ${rawArgs.length} arguments`);
      return b.agg(fn, this.expr(rawArgs[0]), distinct);
    }
    if (distinct) this.fail(`DISTINCT inside ${name}()`);
    if (name === 'strftime' && rawArgs.length === 2 && rawArgs[0].type === 'string_literal') {
      const part = STRFTIME_PARTS[rawArgs[0].value as string];
      // strftime returns text; the plan's date parts are integers, so the text form is kept by a cast.
      if (part) return b.cast(b.fn(part, this.expr(rawArgs[1])), 'text');
    }
    if ((name === 'date_part' || name === 'datepart') && rawArgs.length === 2) {
      if (rawArgs[0].type !== 'string_literal') this.fail(`${name}() with a unit that is not a constant`);
      return this.datePart(String(rawArgs[0].value), rawArgs[1]);
    }
    if (name === 'extract') this.fail('EXTRACT (use year(), month(), ...)');
    const mapped = FUNCTION_ALIASES[name];
    if (!mapped) this.fail(`the function ${name}()`);
    return b.fn(mapped, ...rawArgs.map((a) => this.expr(a)));
  }

  /** EXTRACT(unit FROM x) / date_part('unit', x): the plan's integer date parts. */
  private datePart(unit: string, arg: Any): T.Expr {
    const part = DATE_PART_UNITS[unit.toLowerCase()];
    if (!part)
      this.fail(`the date part ${unit.toUpperCase()} (one of YEAR, MONTH, DAY, HOUR, MINUTE, SECOND)`);
    if (!arg) this.fail(`EXTRACT(${unit.toUpperCase()}) without a value`);
    return b.fn(part, this.expr(arg));
  }

  private window(name: string, rawArgs: Any[], over: Any): T.Expr {
    const fns: readonly string[] = WINDOW_FUNCTIONS;
    if (!fns.includes(name)) this.fail(`the window function ${name}()`);
    const win = over.window;
    if (win?.type !== 'paren_expr') this.fail('a named window');
    const def = win.expr;
    if (def.baseWindowName) this.fail('a named window');
    const args = rawArgs.filter((a) => a.type !== 'all_columns').map((a) => this.expr(a));
    const partitionBy = def.partitionBy
      ? (def.partitionBy.specifications.items as Any[]).map((p) => this.expr(p))
      : [];
    const orderBy = def.orderBy
      ? (def.orderBy.specifications.items as Any[]).map((s) => this.orderItem(s, b.select({ columns: [] })))
      : [];
    let frame: T.Frame | null = null;
    if (def.frame) {
      const unit = String(def.frame.unitKw?.name).toLowerCase();
      if (unit !== 'rows' && unit !== 'range') this.fail(`a ${unit.toUpperCase()} frame`);
      if (def.frame.exclusion) this.fail('a frame EXCLUDE clause');
      const ext = def.frame.extent;
      const [start, end] =
        ext.type === 'frame_between'
          ? [this.frameBound(ext.begin), this.frameBound(ext.end)]
          : [this.frameBound(ext), { bound: 'current_row' as const, offset: null }];
      frame = { unit: unit === 'rows' ? 'rows' : 'range', start, end };
    }
    return b.windowFn(name as T.Window['fn'], args, { partitionBy, orderBy, frame });
  }

  private frameBound(node: Any): T.FrameBound {
    switch (node.type) {
      case 'frame_bound_current_row':
        return { bound: 'current_row', offset: null };
      case 'frame_unbounded':
        return this.fail('a bare UNBOUNDED bound');
      case 'frame_bound_preceding':
      case 'frame_bound_following': {
        const dir = node.type === 'frame_bound_preceding' ? 'preceding' : 'following';
        if (node.expr?.type === 'frame_unbounded') return { bound: `unbounded_${dir}`, offset: null };
        const n = this.integer(node.expr, 'frame offset');
        return { bound: dir, offset: n };
      }
      default:
        return this.fail(`the frame bound ${this.text(node)}`);
    }
  }
}

function words(op: Any): string[] {
  const list = Array.isArray(op) ? op : [op];
  return list.map((k: Any) => (typeof k === 'string' ? k : String(k.name ?? k.text)).toUpperCase());
}

function isQuery(node: Any): boolean {
  return node?.type === 'select_stmt' || node?.type === 'compound_select_stmt';
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

function leftmostSelect(body: T.Body): T.Select {
  if (body.kind === 'select') return body;
  if (body.kind === 'set_op') return leftmostSelect(body.left);
  return leftmostSelect(body.body);
}

export type { Node };
