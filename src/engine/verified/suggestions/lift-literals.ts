/**
 * Turns a plan that answered one question into a verified query's template: each literal the
 * question names and that a filter compares with a column (`country = 'France'`, `year(placed) =
 * 2023`, `amount BETWEEN 10 AND 20`, `code IN ('A')`) becomes a `:parameter` typed by its value,
 * with a description naming the column and the value as an example; the question gets the same
 * `:parameter` where it named the value. A literal the question does not name (`status <>
 * 'cancelled'`) is part of what the query means and stays. Two questions whose plans differ only
 * in lifted values then have the same template: they are paraphrases of one query.
 */
import type { SchemaSnapshot, TypeKind } from '../../datasources/schema';
import type * as T from '../../plan/types';
import type { ParamType } from '../param-values';

export interface LiftedParam {
  readonly type: ParamType;
  readonly description: string;
  readonly example: string | number;
}

export interface Lifted {
  readonly plan: T.Query;
  /** The question with each lifted value replaced by its `:parameter`. */
  readonly question: string;
  readonly params: Record<string, LiftedParam>;
}

export function liftLiterals(plan: T.Query, question: string, snapshot: SchemaSnapshot): Lifted {
  const copy = structuredClone<T.Query>(plan);
  const tables = tableNames(copy);
  const params: Record<string, LiftedParam> = {};
  /** One parameter per (target, value): the same filter repeated in a CTE shares it. */
  const byTarget = new Map<string, string>();
  let template = question;

  const lift = (target: Target, literal: T.Literal): T.Param | null => {
    const value = literal.value;
    if (typeof value !== 'string' && typeof value !== 'number') return null;
    const key = `${target.label}\u0000${JSON.stringify(value)}`;
    const known = byTarget.get(key);
    if (known) return { kind: 'param', name: known };
    const named = findNamed(template, value);
    if (!named) return null;
    const name = freeName(target.name, params);
    template = template.slice(0, named.index) + `:${name}` + template.slice(named.index + named.length);
    params[name] = {
      type: typeOf(literal, target.kind),
      description: `Compared with ${target.label}, e.g. ${value}`,
      example: value,
    };
    byTarget.set(key, name);
    return { kind: 'param', name };
  };

  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (n.kind === 'compare') {
      const left = targetOf(n.left, tables, snapshot);
      const right = targetOf(n.right, tables, snapshot);
      if (left && isLiteral(n.right)) n.right = lift(left, n.right) ?? n.right;
      else if (right && isLiteral(n.left)) n.left = lift(right, n.left) ?? n.left;
    } else if (n.kind === 'between') {
      const target = targetOf(n.expr, tables, snapshot);
      if (target && isLiteral(n.low))
        n.low = lift({ ...target, name: `${target.name}_from` }, n.low) ?? n.low;
      if (target && isLiteral(n.high))
        n.high = lift({ ...target, name: `${target.name}_to` }, n.high) ?? n.high;
    } else if (n.kind === 'in_list') {
      const values = n.values as unknown[];
      const target = targetOf(n.expr, tables, snapshot);
      // A list of several values is a fixed set, not one value a question varies.
      if (target && values.length === 1 && isLiteral(values[0]))
        n.values = [lift(target, values[0]) ?? values[0]];
    }
    Object.values(n).forEach(visit);
  };
  visit(copy);
  return { plan: copy, question: template, params };
}

/** What a lifted value is compared with: a column, or a function or cast of one. */
interface Target {
  /** The parameter's name before de-duplication: `country`, `year_order_date`. */
  readonly name: string;
  /** For people: `customers.country`, `year(orders.order_date)`. */
  readonly label: string;
  /** The column's kind, when the value is compared with the column itself. */
  readonly kind?: TypeKind;
}

function targetOf(e: unknown, tables: Map<string, string>, snapshot: SchemaSnapshot): Target | null {
  const n = e as T.Expr | undefined;
  if (!n || typeof n !== 'object') return null;
  if (n.kind === 'column') {
    const table = tableOf(n, tables, snapshot);
    const kind = snapshot.tables
      .find((t) => t.name.toLowerCase() === table?.toLowerCase())
      ?.columns.find((c) => c.name.toLowerCase() === n.name.toLowerCase())?.kind;
    return { name: identifier(n.name), label: table ? `${table}.${n.name}` : n.name, kind };
  }
  if (n.kind === 'cast') {
    const inner = targetOf(n.expr, tables, snapshot);
    return inner && { name: inner.name, label: inner.label };
  }
  if (n.kind === 'func' && n.args.length >= 1) {
    const inner = n.args.map((a) => targetOf(a, tables, snapshot)).find((t) => t !== null);
    if (!inner) return null;
    return { name: identifier(`${n.name}_${inner.name}`), label: `${n.name}(${inner.label})` };
  }
  return null;
}

/** The table a column belongs to: its qualifier resolved through the plan's aliases, else the one table that has it. */
function tableOf(c: T.Column, tables: Map<string, string>, snapshot: SchemaSnapshot): string | null {
  if (c.table) return tables.get(c.table.toLowerCase()) ?? c.table;
  const owners = [...new Set(tables.values())].filter((t) =>
    snapshot.tables.some(
      (s) =>
        s.name.toLowerCase() === t.toLowerCase() &&
        s.columns.some((col) => col.name.toLowerCase() === c.name.toLowerCase()),
    ),
  );
  return owners.length === 1 ? owners[0]! : null;
}

/** Alias (or name) -> table name, for every table the plan reads. */
function tableNames(plan: T.Query): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (n.kind === 'table' && typeof n.name === 'string') {
      out.set(n.name.toLowerCase(), n.name);
      if (typeof n.alias === 'string') out.set(n.alias.toLowerCase(), n.name);
    }
    Object.values(n).forEach(visit);
  };
  visit(plan);
  return out;
}

function isLiteral(e: unknown): e is T.Literal {
  return (e as { kind?: unknown } | null)?.kind === 'literal';
}

/** The parameter's type: the value's, widened to the column's (a whole number compared with a float column is a number). */
function typeOf(literal: T.Literal, kind: TypeKind | undefined): ParamType {
  const v = literal.value;
  if (typeof v === 'number') {
    const whole = Number.isInteger(v) && literal.type !== 'float';
    return whole && kind !== 'float' && kind !== 'decimal' ? 'integer' : 'number';
  }
  return literal.type === 'date' || /^\d{4}-\d{2}-\d{2}$/.test(String(v)) ? 'date' : 'string';
}

/** Where the question names `value` as a whole word (text case-insensitively, numbers as numbers). */
function findNamed(question: string, value: string | number): { index: number; length: number } | null {
  const text = String(value).trim();
  if (!text) return null;
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Not inside a word or a longer number, and not a placeholder already.
  const pattern =
    typeof value === 'number'
      ? new RegExp(`(?<![\\w.:-])${escaped}(?![\\w]|\\.\\d)`, 'u')
      : new RegExp(`(?<![\\p{L}\\p{N}:])${escaped}(?![\\p{L}\\p{N}])`, 'iu');
  const m = pattern.exec(question);
  return m ? { index: m.index, length: m[0].length } : null;
}

function identifier(raw: string): string {
  const id = raw
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return /^[a-z_]/.test(id) ? id : `p_${id}`;
}

function freeName(base: string, taken: Record<string, unknown>): string {
  if (!(base in taken)) return base;
  let i = 2;
  while (`${base}_${i}` in taken) i++;
  return `${base}_${i}`;
}
