/**
 * SQL -> plan. Parses one SELECT statement with sql-parser-cst (STACK.md: it parses SQLite,
 * PostgreSQL and MySQL including window frames; DuckDB's SELECT syntax is read as PostgreSQL's)
 * and maps its syntax tree onto plan nodes, one module per clause (query.ts, ctes.ts,
 * select-list.ts, from.ts, select.ts for WHERE / GROUP BY / HAVING, order-limit.ts,
 * set-operations.ts, expressions.ts, functions.ts). Whatever the plan language cannot represent
 * fails with SQL_IMPORT_UNSUPPORTED naming the construct; unparseable text fails with
 * SQL_PARSE_ERROR.
 */
import { parse, type Node, type Program } from 'sql-parser-cst';
import type { Dialect, SchemaSnapshot } from '../../datasources/schema';
import { PlanError, importUnsupported } from '../errors';
import type * as T from '../types';
import type { Reader, UsingColumns } from './context';
import { readExpr } from './expressions';
import { readFrom } from './from';
import { PARSER_DIALECT } from './names';
import { MAX_PLAN_DEPTH, assertSqlNesting, tooComplex } from '../limits';
import { readQuery } from './query';

/** How a text is read besides its dialect and schema. */
export interface ImportOptions {
  /**
   * Read `:user.<name>` as the parameter `user.<name>` (a row filter's caller attribute). Off for
   * every other SQL, so a model's draft or a verified query can never name a caller attribute.
   */
  readonly attributeParams?: boolean;
}

export function importSql(
  sql: string,
  dialect: Dialect,
  schema: SchemaSnapshot | null = null,
  options: ImportOptions = {},
): T.Query {
  // The parser recurses once per nesting level: text nested too deep is refused before it parses.
  assertSqlNesting(sql, dialect);
  const cst = parseSql(sql, dialect);
  const statements = cst.statements.filter((s) => s.type !== 'empty');
  if (statements.length !== 1) {
    throw importUnsupported(statements.length === 0 ? 'an empty statement' : 'several statements', sql);
  }
  const statement = statements[0]!;
  const reader = new ImportReader(dialect, schema, sql, options.attributeParams ?? false);
  if (statement.type === 'select_stmt' || statement.type === 'compound_select_stmt')
    return reader.query(statement);
  return reader.fail(
    `a ${statement.type
      .replace(/_stmt$/, '')
      .replace(/_/g, ' ')
      .toUpperCase()} statement (only SELECT)`,
  );
}

function parseSql(sql: string, dialect: Dialect): Program {
  try {
    return parse(sql, { dialect: PARSER_DIALECT[dialect], includeRange: true, paramTypes: [':name'] });
  } catch (err) {
    // A nesting the text scan does not count (it counts what makes the parser recurse) still ends typed.
    if (err instanceof RangeError) throw tooComplex(`The SQL nests too deep to parse; write it flatter.`);
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
}

class ImportReader implements Reader {
  private readonly columnNames: ReadonlySet<string>;
  private derivedCount = 0;
  /** How many readers are open (an expression in a subquery in a derived table ...). */
  private depth = 0;
  /** One entry per SELECT being read, innermost last. */
  private readonly usingStack: UsingColumns[] = [];

  constructor(
    readonly dialect: Dialect,
    readonly schema: SchemaSnapshot | null,
    readonly sql: string,
    readonly attributeParams: boolean,
  ) {
    this.columnNames = new Set(
      (schema?.tables ?? []).flatMap((t) => t.columns.map((c) => c.name.toLowerCase())),
    );
  }

  fail(construct: string): never {
    throw importUnsupported(construct, this.sql);
  }

  text(node: Node | undefined): string {
    if (node?.range) return this.sql.slice(node.range[0], node.range[1]);
    if (node && 'text' in node) return String(node.text);
    return node?.type ?? '?';
  }

  isSchemaColumn(name: string): boolean {
    return this.columnNames.has(name.toLowerCase());
  }

  nextDerivedAlias(): string {
    return `_derived${++this.derivedCount}`;
  }

  usingColumns(): UsingColumns {
    return this.usingStack[this.usingStack.length - 1] ?? new Map();
  }

  inSelect<R>(read: () => R): R {
    this.usingStack.push(new Map());
    try {
      return read();
    } finally {
      this.usingStack.pop();
    }
  }

  nested<R>(read: () => R): R {
    if (++this.depth > MAX_PLAN_DEPTH) {
      throw tooComplex(`The SQL nests more than ${MAX_PLAN_DEPTH} levels deep; write it flatter.`, {
        limit: MAX_PLAN_DEPTH,
      });
    }
    try {
      return read();
    } finally {
      this.depth--;
    }
  }

  expr(node: Node): T.Expr {
    return this.nested(() => readExpr(this, node));
  }

  query(node: Node): T.Query {
    return this.nested(() => readQuery(this, node));
  }

  from(node: Node): T.From {
    return this.nested(() => readFrom(this, node));
  }
}
