/**
 * A row filter (`policies.roles.<role>.rows`): one boolean SQL expression over one table's columns,
 * which may name the caller's attributes as `:user.<name>`. It is read by the importer like any
 * SQL, as the WHERE of `SELECT 1 WHERE <text>`, and then held to that shape: a text that brings
 * a clause of its own (`... GROUP BY`, `... UNION SELECT`, `...; DROP`) or a subquery, an
 * aggregate, a window or a plain `:name` placeholder is refused, so what a filter can do is only
 * what an expression over one row can do. The text itself never reaches SQL: its plan does.
 */
import type { Dialect } from '../../datasources/schema';
import { PlanError } from '../errors';
import type * as T from '../types';
import { walkPlan } from '../walk';
import { ATTRIBUTE_PARAM_PREFIX } from './expressions';
import { importSql } from './importer';

export { ATTRIBUTE_PARAM_PREFIX };

export function importRowFilter(text: string, dialect: Dialect): T.Expr {
  const plan = importSql(`SELECT 1 WHERE ${text}`, dialect, null, { attributeParams: true });
  const body = plan.body;
  const alone =
    body.kind === 'select' &&
    body.where !== null &&
    body.from === null &&
    !body.distinct &&
    body.group_by.length === 0 &&
    body.having === null &&
    body.columns.length === 1 &&
    plan.with.length === 0 &&
    plan.order_by.length === 0 &&
    plan.limit === null &&
    plan.offset === null;
  if (!alone || body.kind !== 'select' || !body.where) {
    throw refused(
      'it must be one boolean expression, with no clause of its own (GROUP BY, ORDER BY, LIMIT, UNION...)',
    );
  }
  const where = body.where;
  walkPlan(where, (n) => {
    if (n.kind === 'query') throw refused('it may not hold a subquery: a filter reads only its own row');
    if (n.kind === 'aggregate' || n.kind === 'window') throw refused(`it may not hold an ${n.kind} function`);
    if (n.kind === 'star') throw refused('it may not hold *');
    if (n.kind === 'param' && !n.name.startsWith(ATTRIBUTE_PARAM_PREFIX))
      throw refused(`it may not hold the placeholder :${n.name}; a caller attribute is written :user.<name>`);
  });
  return where;
}

/** The caller attributes a filter names (`region` for `:user.region`), in order of appearance. */
export function filterAttributes(filter: T.Expr): string[] {
  const names = new Set<string>();
  walkPlan(filter, (n) => {
    if (n.kind === 'param' && n.name.startsWith(ATTRIBUTE_PARAM_PREFIX))
      names.add(n.name.slice(ATTRIBUTE_PARAM_PREFIX.length));
  });
  return [...names];
}

function refused(why: string): PlanError {
  return new PlanError('SQL_IMPORT_UNSUPPORTED', `not a row filter: ${why}`);
}
