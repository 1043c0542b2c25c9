/** The SELECT clause: its modifiers (DISTINCT) and its items, and positions that point at them. */
import type { Node, SelectClause } from 'sql-parser-cst';
import * as b from '../build';
import type * as T from '../types';
import type { Reader } from './context';

/** True for SELECT DISTINCT; any modifier but DISTINCT and ALL is refused. */
export function readDistinct(r: Reader, clause: SelectClause): boolean {
  const mods = clause.modifiers.map((m) =>
    m.type === 'select_distinct' ? 'DISTINCT' : m.type === 'select_all' ? 'ALL' : m.type.toUpperCase(),
  );
  const unknownMod = mods.find((m) => m !== 'DISTINCT' && m !== 'ALL');
  if (unknownMod) r.fail(`the SELECT modifier ${unknownMod}`);
  return mods.includes('DISTINCT');
}

export function readSelectList(r: Reader, clause: SelectClause): T.SelectItem[] {
  // PostgreSQL parses `SELECT FROM t` (no columns); a plan always selects something.
  if (!clause.columns) return r.fail('a SELECT without columns');
  return clause.columns.items.map((c) =>
    c.type === 'alias' ? b.item(r.expr(c.expr), c.alias.name) : b.item(r.expr(c)),
  );
}

/** A GROUP BY / ORDER BY position (`GROUP BY 2`) names that select item; null when not a position. */
export function positional(r: Reader, node: Node, columns: readonly T.SelectItem[]): T.Expr | null {
  if (node.type !== 'number_literal' || !Number.isInteger(node.value)) return null;
  const it = columns[node.value - 1];
  if (!it) return r.fail(`position ${node.value} beyond the select list`);
  return it.alias !== null ? b.col(it.alias) : it.expr;
}
