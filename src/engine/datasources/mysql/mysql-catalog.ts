/**
 * MySQL/MariaDB's catalog (information_schema) for the connection's database. Estimates are
 * `TABLE_ROWS` (InnoDB's statistics, refreshed by ANALYZE TABLE); null for views. Comments are
 * `TABLE_COMMENT` and `COLUMN_COMMENT` (empty when none); a view's TABLE_COMMENT is the word
 * `VIEW`, not a comment.
 */
import type { Cell } from '../adapter';
import type { CatalogTable } from '../base-adapter';
import { commentOf } from '../comments';
import type { Dialect, TypeKind } from '../schema';

const TABLES = `SELECT TABLE_NAME, TABLE_TYPE, TABLE_ROWS, TABLE_COMMENT FROM information_schema.TABLES
WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME`;

const COLUMNS = `SELECT TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLUMN_COMMENT FROM information_schema.COLUMNS
WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION`;

const KEYS = `SELECT k.TABLE_NAME, c.CONSTRAINT_TYPE, k.CONSTRAINT_NAME, k.COLUMN_NAME, k.REFERENCED_TABLE_SCHEMA,
  k.REFERENCED_TABLE_NAME, k.REFERENCED_COLUMN_NAME
FROM information_schema.KEY_COLUMN_USAGE k
JOIN information_schema.TABLE_CONSTRAINTS c ON c.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA
  AND c.TABLE_NAME = k.TABLE_NAME AND c.CONSTRAINT_NAME = k.CONSTRAINT_NAME
WHERE k.TABLE_SCHEMA = DATABASE() AND c.CONSTRAINT_TYPE IN ('PRIMARY KEY', 'FOREIGN KEY')
ORDER BY k.TABLE_NAME, k.CONSTRAINT_NAME, k.ORDINAL_POSITION`;

export async function readMysqlCatalog(
  rows: (sql: string) => Promise<Cell[][]>,
  typeKind: (declared: string, dialect: Dialect) => TypeKind,
): Promise<CatalogTable[]> {
  const [tables, columns, keys] = [await rows(TABLES), await rows(COLUMNS), await rows(KEYS)];
  const [dbRow] = await rows('SELECT DATABASE()');
  const database = dbRow?.[0];
  return tables.map(([name, tableType, tableRows, comment]) => {
    const own = keys.filter((k) => k[0] === name);
    const fkNames = [...new Set(own.filter((k) => k[1] === 'FOREIGN KEY').map((k) => String(k[2])))];
    return {
      name: String(name),
      schema: null,
      columns: columns
        .filter((c) => c[0] === name)
        .map((c) => ({
          name: String(c[1]),
          type: String(c[2]),
          kind: typeKind(String(c[2]), 'mysql'),
          nullable: c[3] === 'YES',
          ...commentOf(c[4]),
        })),
      primaryKey: own.filter((k) => k[1] === 'PRIMARY KEY').map((k) => String(k[3])),
      foreignKeys: fkNames.map((fk) => {
        const parts = own.filter((k) => k[1] === 'FOREIGN KEY' && k[2] === fk);
        const refSchema = parts[0]?.[4];
        const refTable = String(parts[0]?.[5]);
        return {
          columns: parts.map((p) => String(p[3])),
          refTable: refSchema === database ? refTable : `${String(refSchema)}.${refTable}`,
          refColumns: parts.map((p) => String(p[6])),
        };
      }),
      rowCountEstimate: tableType === 'VIEW' || tableRows === null ? null : Number(tableRows),
      ...(tableType === 'VIEW' ? {} : commentOf(comment)),
    };
  });
}
