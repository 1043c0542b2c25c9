/** WITH: each common table expression becomes a plan CTE (no RECURSIVE, column lists or MATERIALIZED). */
import type { WithClause } from 'sql-parser-cst';
import * as b from '../build';
import type * as T from '../types';
import type { Reader } from './context';

export function readWith(r: Reader, clause: WithClause): T.Cte[] {
  if (clause.recursiveKw) r.fail('WITH RECURSIVE');
  return clause.tables.items.map((t) => {
    if (t.columns) r.fail('a CTE column list');
    if (t.materializedKw) r.fail('MATERIALIZED CTEs');
    return b.cte(t.table.name, r.query(t.expr));
  });
}
