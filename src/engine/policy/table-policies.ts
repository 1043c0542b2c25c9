/**
 * What one table becomes for one caller when its roles filter its rows or mask its columns: the
 * query `SELECT <its columns> FROM <table> WHERE <filter>` that stands in for it wherever a plan
 * reads it (policy-rewrite.ts). The caller's roles combine row by row, as "a caller reads what any
 * of its roles may read" says for whole tables:
 *
 * - a row is visible when any role that reads the table allows it (the OR of their filters; a
 *   role with no filter on the table allows every row, so then there is no filter at all);
 * - a cell shows its value when a role that reads the column unmasked allows the row; else its
 *   mask when a role that masks the column allows the row; else NULL (the row is visible through
 *   a role that may not read this column). Where one rule holds for every visible row, the cell is
 *   that rule alone, with no CASE.
 *
 * A column none of the roles may read is left out of the stand-in: the validator already refused
 * any reference to it, and what is not selected cannot leak through a later change.
 */
import type { SchemaSnapshot, TableInfo } from '../datasources/schema';
import type { PlanProblem } from '../plan';
import * as b from '../plan/build';
import type { Expr, Query, SelectItem } from '../plan/types';
import { rowRuleOf, type PolicyView, type TableReader } from '../plan/validator/policy';
import { maskExpr, maskStyleOf } from './masks';
import { anyOf, bindFilter, resolveFilter, type CallerAttributes } from './row-filters';

/** A policy that shaped a sub-query, as `policies_applied` reports it. */
export interface PolicyApplied {
  readonly kind: 'row_filter' | 'mask' | 'model_sees';
  /** `<datasource>.<table>` for a row filter, `<datasource>.<table>.<column>` for a mask, the level for model_sees. */
  readonly target: string;
  readonly role: string;
}

export type TablePolicy =
  /** The caller reads the table as it is. */
  | { readonly kind: 'none' }
  | { readonly kind: 'rewrite'; readonly query: Query; readonly applied: readonly PolicyApplied[] }
  /** A filter of one of the caller's roles does not resolve against the current schema. */
  | { readonly kind: 'refused'; readonly problem: PlanProblem };

export interface TablePolicyInput {
  readonly view: PolicyView;
  readonly datasourceId: string;
  readonly snapshot: SchemaSnapshot;
  readonly attributes: CallerAttributes;
  /** Attribute values the filters use, by parameter name (filled here). */
  readonly params: Record<string, string>;
}

/** The table as the caller may read it. `spelled` is the name the plan used (it resolves as the plan's did). */
export function tablePolicy(table: TableInfo, spelled: string, input: TablePolicyInput): TablePolicy {
  const readers = input.view.tableReaders(table.name);
  if (!readers || readers.length === 0) return { kind: 'none' };
  const target = `${input.datasourceId}.${table.name}`;
  const filters = new Map<TableReader, Expr | null>();
  for (const r of readers) {
    const text = rowRuleOf(r.policy, target);
    if (text === undefined) {
      filters.set(r, null);
      continue;
    }
    const filter = resolveFilter(text, table, input.snapshot);
    if (!filter.ok)
      return { kind: 'refused', problem: brokenFilter(table.name, r.role, target, filter.problem) };
    filters.set(r, bindFilter(filter, input.attributes, input.params));
  }
  const applied: PolicyApplied[] = [];
  const rows = anyOf(readers.map((r) => filters.get(r)!));
  if (rows !== null) for (const r of readers) applied.push({ kind: 'row_filter', target, role: r.role });
  let changed = rows !== null;
  const items: SelectItem[] = [];
  for (const c of table.columns) {
    const cell = cellOf(table, c.name, readers, filters, input.view);
    if (cell.kind === 'hidden') {
      changed = true;
      continue;
    }
    const column = b.col(c.name, table.name);
    if (cell.kind === 'value') {
      items.push(b.item(column));
      continue;
    }
    changed = true;
    items.push(b.item(cell.expr(column), c.name));
    for (const role of cell.maskedBy) applied.push({ kind: 'mask', target: `${target}.${c.name}`, role });
  }
  if (!changed) return { kind: 'none' };
  const query = b.query(b.select({ columns: items, from: b.table(spelled), where: rows }));
  return { kind: 'rewrite', query, applied };
}

type Cell =
  | { readonly kind: 'value' }
  | { readonly kind: 'hidden' }
  | { readonly kind: 'shaped'; readonly expr: (column: Expr) => Expr; readonly maskedBy: readonly string[] };

function cellOf(
  table: TableInfo,
  column: string,
  readers: readonly TableReader[],
  filters: ReadonlyMap<TableReader, Expr | null>,
  view: PolicyView,
): Cell {
  const reading = readers.filter((r) => view.readerReadsColumn(r, table.name, column));
  if (reading.length === 0) return { kind: 'hidden' };
  const masking = reading.filter((r) => view.readerMasks(r, table.name, column));
  const clear = reading.filter((r) => !masking.includes(r));
  const clearRows = clear.length ? anyOf(clear.map((r) => filters.get(r)!)) : undefined;
  // Every visible row is one a clear reader allows: the value itself.
  if (clearRows === null || clear.length === readers.length) return { kind: 'value' };
  const maskedBy = masking.map((r) => r.role);
  const maskRows = masking.length ? anyOf(masking.map((r) => filters.get(r)!)) : undefined;
  // Rows no clear reader allows show the mask when every role reads the column, or a masking
  // role reads every row; otherwise only where a masking role allows them, and NULL elsewhere.
  const maskEverywhere = masking.length > 0 && (maskRows === null || reading.length === readers.length);
  const style = maskStyleOf(masking.map((r) => r.policy));
  return {
    kind: 'shaped',
    maskedBy,
    expr: (col) => {
      const masked = masking.length ? maskExpr(col, style) : null;
      // A value beside a mask in one CASE is text, as the mask is (engines want one type per CASE).
      const value = masked ? b.cast(col, 'text') : col;
      const whens: { when: Expr; then: Expr }[] = [];
      if (clearRows !== undefined) whens.push({ when: clearRows, then: value });
      if (masked && maskEverywhere) return whens.length ? b.caseWhen(null, whens, masked) : masked;
      if (masked && maskRows) whens.push({ when: maskRows, then: masked });
      return b.caseWhen(null, whens, null);
    },
  };
}

function brokenFilter(table: string, role: string, target: string, why: string): PlanProblem {
  return {
    code: 'TABLE_DENIED',
    path: '/',
    message:
      `Table "${table}" cannot be read: the row filter of role "${role}" on it does not match the ` +
      `datasource's current schema (${why}); an operator must fix policies.roles.${role}.rows.${target}.`,
  };
}
