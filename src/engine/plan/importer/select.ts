/**
 * One SELECT's clauses into a plan select: FROM first (its USING joins decide what bare column
 * names in the other clauses mean), then the select list, WHERE, GROUP BY and HAVING.
 */
import type { FromClause, GroupByClause, HavingClause, SelectClause, WhereClause } from 'sql-parser-cst';
import * as b from '../build';
import type * as T from '../types';
import type { Reader } from './context';
import { positional, readDistinct, readSelectList } from './select-list';

export interface SelectParts {
  select?: SelectClause;
  from?: FromClause;
  where?: WhereClause;
  groupBy?: GroupByClause;
  having?: HavingClause;
}

export function readSelect(r: Reader, parts: SelectParts): T.Select {
  if (!parts.select) return r.fail('a query without a SELECT clause');
  const distinct = readDistinct(r, parts.select);
  const from = parts.from ? r.from(parts.from.expr) : null;
  const columns = readSelectList(r, parts.select);
  if (r.usingColumns().size && columns.some((c) => c.expr.kind === 'star' && c.expr.table === null)) {
    // USING shows each joined column once, ON twice: * would change the output columns.
    r.fail('SELECT * over JOIN ... USING (list the columns)');
  }
  const groupBy = parts.groupBy ? readGroupBy(r, parts.groupBy, columns) : [];
  return b.select({
    distinct,
    columns,
    from,
    where: parts.where ? r.expr(parts.where.expr) : null,
    groupBy,
    having: parts.having ? r.expr(parts.having.expr) : null,
  });
}

function readGroupBy(r: Reader, clause: GroupByClause, columns: readonly T.SelectItem[]): T.Expr[] {
  if (clause.withRollupKw) r.fail('GROUP BY modifiers (ROLLUP/CUBE)');
  return clause.columns.items.map((g) => positional(r, g, columns) ?? r.expr(g));
}
