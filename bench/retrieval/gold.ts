/**
 * The tables and columns a gold query uses, from Spider's parsed `sql` field: table units of every
 * FROM (nested queries included) and every column unit `[agg, column_index, distinct]` anywhere in
 * it (select, where, join conditions, group, order, having). `*` is not a column.
 */
import type { SpiderTable } from '../support/spider';

export interface GoldSchema {
  readonly tables: ReadonlySet<string>;
  /** `table.column`, lower-cased. */
  readonly columns: ReadonlySet<string>;
}

export function goldSchema(sql: unknown, schema: SpiderTable): GoldSchema {
  const tables = new Set<string>();
  const columns = new Set<string>();
  const tableName = (i: number) => (schema.tableNamesOriginal[i] ?? '').toLowerCase();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      if (node.length === 2 && node[0] === 'table_unit' && typeof node[1] === 'number') {
        tables.add(tableName(node[1]));
        return;
      }
      if (
        node.length === 3 &&
        typeof node[0] === 'number' &&
        typeof node[1] === 'number' &&
        typeof node[2] === 'boolean'
      ) {
        const col = schema.columnNamesOriginal[node[1]];
        if (col && col[0] >= 0) {
          tables.add(tableName(col[0]));
          columns.add(`${tableName(col[0])}.${col[1].toLowerCase()}`);
        }
        return;
      }
      for (const x of node) walk(x);
    } else if (node && typeof node === 'object') {
      for (const v of Object.values(node)) walk(v);
    }
  };
  walk(sql);
  return { tables, columns };
}
