/**
 * The validator's expression checks: one rule per expression kind (a `Record<kind, ...>` table,
 * like the compiler's, so a new kind does not compile until it is checked). A rule checks its own
 * node and descends through `childrenOf` (walk.ts), so what a node holds is known in one place;
 * nested queries go back to the query checks through `Checker.query`.
 */
import { scalarSignature, windowSignature } from '../functions';
import { inferType, isNumericType, outputColumns } from '../inference';
import type { Scope } from '../scope';
import type * as T from '../types';
import { childrenOf } from '../walk';
import { hint, suggest, type Findings } from './problems';
import type { PolicyView } from './policy';

/** What the expression checks need from the validator around them. */
export interface Checker {
  readonly findings: Findings;
  readonly policy: PolicyView;
  /** Checks a nested query (a subquery, IN or EXISTS) in the scope it is written in. */
  query(q: T.Query, outer: Scope, path: string): void;
}

/** Where aggregates and window functions may appear; `clause` names the place in messages. */
export interface Allow {
  readonly aggregates: boolean;
  readonly windows: boolean;
  readonly clause?: string;
}

/** One expression being checked: where it is and what is allowed there. */
interface At {
  readonly c: Checker;
  readonly scope: Scope;
  readonly path: string;
  readonly allow: Allow;
  readonly inAggregate: boolean;
  /**
   * Where a masked column may not be used, named for the message (`WHERE`, `ORDER BY`, `SUM(...)`);
   * null where it may (a select item, COUNT of it): there it only ever holds the masked value.
   */
  readonly guard: string | null;
}

type Rule<K extends T.ExprKind> = (at: At, e: T.ExprOf<K>) => void;

/** Checks an expression; a clause named in `allow` (WHERE, GROUP BY...) is no place for a masked column. */
export function checkExpr(
  c: Checker,
  e: T.Expr,
  scope: Scope,
  path: string,
  allow: Allow,
  inAggregate = false,
  guard: string | null = allow.clause ?? null,
): void {
  (RULES[e.kind] as Rule<T.ExprKind>)({ c, scope, path, allow, inAggregate, guard }, e);
}

type Over = Partial<Pick<At, 'allow' | 'inAggregate' | 'guard'>>;

/** Checks what `e` holds, each child with the same allowances unless `over` changes them. */
function children(at: At, e: T.Expr, over: Over = {}, only?: (childPath: string) => boolean): void {
  for (const k of childrenOf(e)) {
    if (only && !only(k.path)) continue;
    const path = `${at.path}${k.path}`;
    if (k.node.kind === 'query') at.c.query(k.node, at.scope, path);
    else
      checkExpr(
        at.c,
        k.node,
        at.scope,
        path,
        over.allow ?? at.allow,
        over.inAggregate ?? at.inAggregate,
        over.guard !== undefined ? over.guard : at.guard,
      );
  }
}

const RULES: { [K in T.ExprKind]: Rule<K> } = {
  column: (at, e) => checkColumn(at, e),
  literal: (at, e) => {
    if ((e.type === 'date' || e.type === 'timestamp') && typeof e.value !== 'string' && e.value !== null) {
      at.c.findings.problem(
        'BAD_ARGUMENTS',
        at.path,
        `A ${e.type} literal must be a string like 2024-01-31.`,
      );
    }
  },
  param: () => undefined,
  star: (at) =>
    at.c.findings.problem(
      'MISPLACED_STAR',
      at.path,
      '"star" may only be a select item; use aggregate count with arg null for COUNT(*).',
    ),
  negate: children,
  not: children,
  arith: children,
  compare: (at, e) => {
    children(at, e);
    compareTypes(at, e);
  },
  concat: children,
  and: children,
  or: children,
  in_list: children,
  in_query: (at, e) => {
    children(at, e);
    oneColumn(at, e.query);
  },
  exists: children,
  subquery: (at, e) => {
    children(at, e);
    oneColumn(at, e.query);
  },
  between: children,
  like: children,
  is_null: children,
  cast: children,
  case: children,
  func: (at, e) => {
    const sig = scalarSignature(e.name);
    arity(at, `Function ${e.name}`, e.args.length, sig.minArgs, sig.maxArgs);
    children(at, e);
  },
  aggregate: checkAggregate,
  window: checkWindow,
};

function arity(at: At, what: string, got: number, min: number, max: number): void {
  if (got >= min && got <= max) return;
  const range = min === max ? `${min}` : `${min} to ${max}`;
  at.c.findings.problem('BAD_ARGUMENTS', at.path, `${what} takes ${range} argument(s), got ${got}.`);
}

function checkAggregate(at: At, e: T.Aggregate): void {
  const f = at.c.findings;
  if (!at.allow.aggregates) {
    f.problem(
      'MISPLACED_AGGREGATE',
      at.path,
      `Aggregate ${e.fn} is not allowed in ${at.allow.clause ?? 'this place'}; filter groups with "having" instead.`,
    );
  } else if (at.inAggregate) {
    f.problem(
      'NESTED_AGGREGATE',
      at.path,
      `Aggregate ${e.fn} is nested inside another aggregate; aggregate a derived table instead.`,
    );
  }
  if (e.arg === null && e.fn !== 'count')
    f.problem(
      'BAD_ARGUMENTS',
      at.path,
      `Aggregate ${e.fn} needs an argument (only count takes null for COUNT(*)).`,
    );
  if (e.arg && (e.fn === 'avg' || e.fn === 'sum') && inferType(e.arg, at.scope) === 'text') {
    // Engines disagree on text that holds numbers or dates: SQLite reads the longest numeric
    // prefix ('1988-05-02' -> 1988), PostgreSQL refuses, DuckDB casts the whole text or fails.
    f.warn(
      'AGGREGATE_OVER_TEXT',
      at.path,
      `${e.fn} is taken over a text column; cast it to a number (or extract the part you need) so every database reads it the same way.`,
    );
  }
  // COUNT of a masked column counts what the mask keeps (NULL stays NULL); any other aggregate, or
  // COUNT(DISTINCT ...), would compute on masked forms instead of values (all '***' count as one).
  const guard =
    e.fn === 'count' && !e.distinct ? at.guard : `${e.fn.toUpperCase()}(${e.distinct ? 'DISTINCT ' : ''}...)`;
  children(at, e, { inAggregate: true, guard });
}

const IN_WINDOW: Allow = { aggregates: true, windows: false, clause: 'a window function' };

function checkWindow(at: At, e: T.Window): void {
  if (!at.allow.windows) {
    at.c.findings.problem(
      'MISPLACED_WINDOW',
      at.path,
      `Window function ${e.fn} is not allowed in ${at.allow.clause ?? 'this place'}; compute it in a derived table and filter outside.`,
    );
  }
  const sig = windowSignature(e.fn);
  arity(at, `Window function ${e.fn}`, e.args.length, sig.minArgs, sig.maxArgs);
  children(at, e, { allow: IN_WINDOW }, (p) => p.startsWith('/args/'));
  children(
    at,
    e,
    { allow: IN_WINDOW, guard: "a window's PARTITION BY or ORDER BY" },
    (p) => !p.startsWith('/args/'),
  );
  for (const side of ['start', 'end'] as const) {
    const bnd = e.frame?.[side];
    if (!bnd) continue;
    const needs = bnd.bound === 'preceding' || bnd.bound === 'following';
    if (needs !== (bnd.offset !== null) || (bnd.offset !== null && bnd.offset < 0)) {
      at.c.findings.problem(
        'BAD_FRAME',
        `${at.path}/frame/${side}`,
        `Frame bound ${bnd.bound} ${needs ? 'needs a non-negative integer offset' : 'takes offset null'}.`,
      );
    }
  }
}

function checkColumn(at: At, e: T.Column): void {
  const r = at.scope.resolveColumn(e.table, e.name);
  if (!r.ok) return unresolvedColumn(at, e, r.reason, r.candidates);
  const t = r.relation.table;
  const policy = at.c.policy;
  // A denied table is reported once, where FROM names it; its columns are not reported again.
  if (t && r.column && policy.canReadTable(t.name) && !policy.canReadColumn(t.name, r.column.name)) {
    at.c.findings.problem(
      'COLUMN_DENIED',
      at.path,
      `The caller's roles may not read column "${t.name}.${r.column.name}". Answer without it.`,
    );
  } else if (
    t &&
    r.column &&
    at.guard &&
    policy.canReadColumn(t.name, r.column.name) &&
    policy.isMasked(t.name, r.column.name)
  ) {
    at.c.findings.problem(
      'COLUMN_DENIED',
      at.path,
      `The caller's roles may read column "${t.name}.${r.column.name}" only masked, so it may not be used in ${at.guard}. Select it, or answer without it.`,
    );
  }
}

function unresolvedColumn(
  at: At,
  e: T.Column,
  reason: 'unknown_table' | 'unknown_column' | 'ambiguous',
  candidates: string[],
): void {
  const f = at.c.findings;
  if (reason === 'unknown_table') {
    f.problem(
      'UNKNOWN_TABLE_ALIAS',
      `${at.path}/table`,
      `"${e.table}" is not a table or alias in scope.${hint(e.table!, candidates)} In scope: ${candidates.join(', ') || 'none'}.`,
      suggest(e.table!, candidates),
    );
  } else if (reason === 'ambiguous') {
    f.problem(
      'AMBIGUOUS_COLUMN',
      at.path,
      `Column "${e.name}" exists in several tables (${candidates.join(', ')}); set "table" to one of them.`,
    );
  } else {
    const where = e.table ? `table "${e.table}"` : 'any table in scope';
    const names = [...new Set(candidates)];
    f.problem(
      'UNKNOWN_COLUMN',
      `${at.path}/name`,
      `Column "${e.name}" does not exist in ${where}.${hint(e.name, names)} Available: ${names.slice(0, 60).join(', ')}.`,
      suggest(e.name, names),
    );
  }
}

const NUMERIC_TEXT = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

function compareTypes(at: At, e: T.Compare): void {
  const lit = e.right.kind === 'literal' ? e.right : e.left.kind === 'literal' ? e.left : null;
  const other = lit === e.right ? e.left : e.right;
  if (lit && typeof lit.value === 'number' && inferType(other, at.scope) === 'text') {
    at.c.findings.warn(
      'COMPARISON_TYPE_MISMATCH',
      at.path,
      `A text value is compared with the number ${lit.value}; databases differ in how they convert the text (cast it explicitly).`,
    );
    return;
  }
  if (!lit || typeof lit.value !== 'string') return;
  const t = inferType(other, at.scope);
  if (isNumericType(t) && !NUMERIC_TEXT.test(lit.value)) {
    at.c.findings.warn(
      'COMPARISON_TYPE_MISMATCH',
      at.path,
      `A ${t} value is compared with the text "${lit.value}", which is not a number.`,
    );
  }
}

/** A subquery used as a value (scalar, or the list of IN) selects exactly one column. */
function oneColumn(at: At, q: T.Query): void {
  const cols = outputColumns(q, at.scope);
  if (cols && cols.length !== 1) {
    at.c.findings.problem(
      'SUBQUERY_COLUMN_COUNT',
      `${at.path}/query`,
      `This subquery must select exactly one column, it selects ${cols.length}.`,
    );
  }
}
