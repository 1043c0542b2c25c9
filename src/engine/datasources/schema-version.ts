/**
 * `schema_version`: a digest of the snapshot's structure. Sample values and row estimates change
 * with the data, so they are left out: the version moves only when a table, column, type,
 * nullability, key or comment changes. A comment is part of what the planner reads (the schema
 * prompt shows it), so a changed comment is a changed schema for plans cached on the version.
 * Tables are sorted by name so that catalog order (which some databases do not guarantee) does
 * not change the digest; columns keep their declared order, which decides what `SELECT *` returns.
 * Comments enter the digest only where there is one, so a schema without comments keeps the
 * version it had before comments were read.
 */
import { createHash } from 'node:crypto';
import type { TableInfo } from './schema';

export function schemaVersionOf(tables: readonly TableInfo[]): string {
  const structure = [...tables]
    .sort((a, b) => tableKey(a).localeCompare(tableKey(b)))
    .map((t) => ({
      table: tableKey(t),
      columns: t.columns.map((c) => {
        const column: unknown[] = [c.name, c.type, c.kind, c.nullable];
        if (c.comment) column.push(c.comment);
        return column;
      }),
      primaryKey: t.primaryKey,
      foreignKeys: [...t.foreignKeys]
        .map((fk) => [fk.columns.join(','), fk.refTable, fk.refColumns.join(',')].join('>'))
        .sort(),
      ...(t.comment ? { comment: t.comment } : {}),
    }));
  return createHash('sha256').update(JSON.stringify(structure)).digest('hex').slice(0, 16);
}

function tableKey(t: TableInfo): string {
  return t.schema ? `${t.schema}.${t.name}` : t.name;
}
