/**
 * `schema_version`: a digest of the snapshot's structure. Sample values and row estimates change
 * with the data, so they are left out: the version moves only when a table, column, type,
 * nullability or key changes. Tables are sorted by name so that catalog order (which some
 * databases do not guarantee) does not change the digest; columns keep their declared order,
 * which decides what `SELECT *` returns.
 */
import { createHash } from 'node:crypto';
import type { TableInfo } from './schema';

export function schemaVersionOf(tables: readonly TableInfo[]): string {
  const structure = [...tables]
    .sort((a, b) => tableKey(a).localeCompare(tableKey(b)))
    .map((t) => ({
      table: tableKey(t),
      columns: t.columns.map((c) => [c.name, c.type, c.kind, c.nullable]),
      primaryKey: t.primaryKey,
      foreignKeys: [...t.foreignKeys]
        .map((fk) => [fk.columns.join(','), fk.refTable, fk.refColumns.join(',')].join('>'))
        .sort(),
    }));
  return createHash('sha256').update(JSON.stringify(structure)).digest('hex').slice(0, 16);
}

function tableKey(t: TableInfo): string {
  return t.schema ? `${t.schema}.${t.name}` : t.name;
}
