/**
 * The grouping check: in a grouped select every column outside an aggregate must be grouped, or
 * depend on grouped columns (a table whose whole primary key is grouped, directly or through join
 * equalities), or sit beside exactly one MIN/MAX (it then comes from that row, SQLite's
 * documented rule).
 */
import type { Scope } from '../scope';
import type * as T from '../types';
import { containsAggregate, walkExpr } from '../walk';
import type { Findings } from './problems';

type KeyOf = (table: string | null, name: string) => string | null;

/**
 * Checks the select list and HAVING of `sel` (orderItems null), or the ORDER BY items of the
 * query around it (called a second time, from the query, with those items).
 */
export function checkGrouping(
  f: Findings,
  sel: T.Select,
  scope: Scope,
  path: string,
  orderItems: readonly [T.Expr, string][] | null,
): void {
  const grouped =
    sel.group_by.length > 0 ||
    sel.columns.some((c) => containsAggregate(c.expr)) ||
    (sel.having !== null && containsAggregate(sel.having));
  if (!grouped) return;
  const key: KeyOf = (table, name) => {
    const r = scope.resolveColumn(table, name);
    return r.ok && r.depth === 0
      ? `${r.relation.alias.toLowerCase()}.${(r.column?.name ?? name).toLowerCase()}`
      : null;
  };
  const groupedExprs = new Set(sel.group_by.filter((g) => g.kind !== 'column').map((g) => JSON.stringify(g)));
  const keys = groupedKeys(sel, scope, key);
  const minMax = countMinMax(sel);
  const items: readonly [T.Expr, string][] = orderItems ?? [
    ...sel.columns.map((c, i) => [c.expr, `${path}/columns/${i}/expr`] as [T.Expr, string]),
    ...(sel.having ? [[sel.having, `${path}/having`] as [T.Expr, string]] : []),
  ];
  const aliases = new Set(sel.columns.map((c) => c.alias?.toLowerCase()).filter((a) => a));
  for (const [expr, p] of items) {
    walkExpr(expr, (x) => {
      if (x.kind === 'aggregate' || x.kind === 'window') return false;
      if (groupedExprs.has(JSON.stringify(x))) return false;
      if (x.kind === 'star') {
        f.problem(
          'UNGROUPED_COLUMN',
          p,
          'A grouped query cannot select "*"; select grouped columns and aggregates.',
        );
        return false;
      }
      if (x.kind !== 'column') return true;
      if (x.table === null && aliases.has(x.name.toLowerCase()) && orderItems) return false;
      const k = key(x.table, x.name);
      if (k === null || keys.has(k)) return false;
      ungrouped(f, x, p, minMax);
      return false;
    });
  }
}

function ungrouped(f: Findings, x: T.Column, path: string, minMax: number): void {
  if (minMax === 1) {
    f.warn(
      'ARBITRARY_GROUP_VALUE',
      path,
      `Column "${x.name}" is not grouped; it takes its value from the row of the query's one MIN/MAX.`,
    );
    return;
  }
  f.problem(
    'UNGROUPED_COLUMN',
    path,
    `Column "${x.table ? `${x.table}.` : ''}${x.name}" must appear in group_by or be used inside an aggregate (e.g. min or max).`,
  );
}

function countMinMax(sel: T.Select): number {
  let minMax = 0;
  for (const c of sel.columns) {
    walkExpr(c.expr, (x) => {
      if (x.kind === 'aggregate' && (x.fn === 'min' || x.fn === 'max')) minMax++;
      return x.kind !== 'window';
    });
  }
  return minMax;
}

/** The grouped columns, and every column of a table whose whole primary key they hold. */
function groupedKeys(sel: T.Select, scope: Scope, key: KeyOf): Set<string> {
  const keys = new Set(
    sel.group_by
      .flatMap((g) => (g.kind === 'column' ? [key(g.table, g.name)] : []))
      .filter((k): k is string => !!k),
  );
  closeOverEqualities(sel, keys, key);
  for (const rel of scope.relations) {
    const pk = rel.table?.primaryKey ?? [];
    if (pk.length && pk.every((c) => keys.has(`${rel.alias.toLowerCase()}.${c.toLowerCase()}`))) {
      for (const c of rel.columns ?? []) keys.add(`${rel.alias.toLowerCase()}.${c.name.toLowerCase()}`);
    }
  }
  return keys;
}

/** Adds to `keys` the columns an inner join or WHERE equates with a grouped column. */
function closeOverEqualities(sel: T.Select, keys: Set<string>, key: KeyOf): void {
  const pairs: [string, string][] = [];
  const collect = (e: T.Expr | null) => {
    if (!e) return;
    for (const c of e.kind === 'and' ? e.args : [e]) {
      if (c.kind === 'compare' && c.op === '=' && c.left.kind === 'column' && c.right.kind === 'column') {
        const a = key(c.left.table, c.left.name);
        const b = key(c.right.table, c.right.name);
        if (a && b) pairs.push([a, b]);
      }
    }
  };
  const fromOns = (from: T.From | null) => {
    if (from?.kind !== 'join') return;
    if (from.join_type === 'inner') collect(from.on);
    fromOns(from.left);
    fromOns(from.right);
  };
  fromOns(sel.from);
  collect(sel.where);
  let changed = true;
  while (changed) {
    changed = false;
    for (const [a, b] of pairs) {
      for (const [x, y] of [
        [a, b],
        [b, a],
      ] as const) {
        if (keys.has(x) && !keys.has(y)) {
          keys.add(y);
          changed = true;
        }
      }
    }
  }
}
