/**
 * PostgreSQL's catalog as CatalogTables: every user schema (not pg_catalog, information_schema,
 * pg_toast, temp schemas), tables, partitioned tables, views, materialized views and foreign
 * tables; declared types from `format_type`; estimates from `pg_class.reltuples` (-1 when never
 * analysed, then the base class counts); comments from `COMMENT ON` (pg_description, through
 * obj_description and col_description).
 */
import type { Cell } from '../adapter';
import type { CatalogTable } from '../base-adapter';
import { commentOf } from '../comments';
import type { Dialect, TypeKind } from '../schema';

const USER_SCHEMA = `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'`;

const TABLES = `
SELECT n.nspname, c.relname, c.reltuples::float8, c.relkind::text, obj_description(c.oid, 'pg_class')
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition AND ${USER_SCHEMA}
ORDER BY 1, 2`;

const COLUMNS = `
SELECT n.nspname, c.relname, a.attname, format_type(a.atttypid, a.atttypmod), NOT a.attnotnull, t.typtype::text,
  col_description(c.oid, a.attnum)
FROM pg_attribute a
JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_type t ON t.oid = a.atttypid
WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND ${USER_SCHEMA}
ORDER BY 1, 2, a.attnum`;

const KEYS = `
SELECT n.nspname, c.relname, con.contype::text,
  (SELECT json_agg(a.attname ORDER BY k.ord) FROM unnest(con.conkey) WITH ORDINALITY k(attnum, ord)
     JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum)::text,
  rn.nspname, rc.relname,
  (SELECT json_agg(a.attname ORDER BY k.ord) FROM unnest(con.confkey) WITH ORDINALITY k(attnum, ord)
     JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum)::text
FROM pg_constraint con
JOIN pg_class c ON c.oid = con.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_class rc ON rc.oid = con.confrelid LEFT JOIN pg_namespace rn ON rn.oid = rc.relnamespace
WHERE con.contype IN ('p', 'f') AND ${USER_SCHEMA}
ORDER BY 1, 2, con.conname`;

export async function readPostgresCatalog(
  rows: (sql: string) => Promise<Cell[][]>,
  typeKind: (declared: string, dialect: Dialect) => TypeKind,
): Promise<CatalogTable[]> {
  const [tables, columns, keys] = [await rows(TABLES), await rows(COLUMNS), await rows(KEYS)];
  const key = (schema: Cell | undefined, name: Cell | undefined) => `${String(schema)}.${String(name)}`;
  return tables.map(([schema, name, reltuples, relkind, comment]) => {
    const k = key(schema, name);
    const own = keys.filter((r) => key(r[0], r[1]) === k);
    const pk = own.find((r) => r[2] === 'p');
    // a view has no statistics of its own: null, and the base class counts it (with a timeout)
    const estimate =
      relkind !== 'v' && typeof reltuples === 'number' && reltuples >= 0 ? Math.round(reltuples) : null;
    return {
      name: String(name),
      schema: String(schema),
      columns: columns
        .filter((c) => key(c[0], c[1]) === k)
        .map((c) => ({
          name: String(c[2]),
          type: String(c[3]),
          // an enum's values are labels: text for the planner
          kind: c[5] === 'e' ? 'text' : typeKind(String(c[3]), 'postgres'),
          nullable: c[4] === true,
          ...commentOf(c[6]),
        })),
      primaryKey: pk ? (JSON.parse(String(pk[3])) as string[]) : [],
      foreignKeys: own
        .filter((r) => r[2] === 'f')
        .map((r) => ({
          columns: JSON.parse(String(r[3])) as string[],
          refTable: r[4] === schema ? String(r[5]) : `${String(r[4])}.${String(r[5])}`,
          refColumns: JSON.parse(String(r[6])) as string[],
        })),
      rowCountEstimate: estimate,
      ...commentOf(comment),
    } satisfies CatalogTable;
  });
}
