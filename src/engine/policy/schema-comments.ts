/**
 * The database's comments on tables and columns that a caller may read, for listings (the
 * datasource routes, MCP's describe_datasource). A comment says what a column holds, so a column
 * the caller's roles may not read shows none, like its values; nor does a table it may not read.
 */
import type { SchemaSnapshot } from '../datasources/schema';
import { canReadColumn, canReadTable, type RolePolicies } from './rbac';

/** Wire shape: `column` is null for the table's own comment; `table` is `schema.table` where there is a schema. */
export interface SchemaComment {
  table: string;
  column: string | null;
  comment: string;
}

export function readableComments(
  snapshot: SchemaSnapshot,
  policies: RolePolicies,
  roles: readonly string[],
): SchemaComment[] {
  const ds = snapshot.datasourceId;
  const out: SchemaComment[] = [];
  for (const t of snapshot.tables) {
    if (!canReadTable(policies, roles, ds, t.name)) continue;
    const table = t.schema ? `${t.schema}.${t.name}` : t.name;
    if (t.comment) out.push({ table, column: null, comment: t.comment });
    for (const c of t.columns) {
      if (c.comment && canReadColumn(policies, roles, ds, t.name, c.name))
        out.push({ table, column: c.name, comment: c.comment });
    }
  }
  return out;
}
