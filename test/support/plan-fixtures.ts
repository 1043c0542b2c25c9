/** A small shop schema shared by the plan tests (the shape an adapter's introspection returns). */
import type { ColumnInfo, SchemaSnapshot, TableInfo, TypeKind } from '../../src/engine/datasources/schema';

const col = (name: string, kind: TypeKind, type = kind.toUpperCase()): ColumnInfo => ({
  name,
  type,
  kind,
  nullable: true,
  sampleValues: [],
});

const table = (
  name: string,
  columns: ColumnInfo[],
  primaryKey: string[],
  foreignKeys: TableInfo['foreignKeys'] = [],
): TableInfo => ({
  name,
  schema: null,
  columns,
  primaryKey,
  foreignKeys,
  rowCountEstimate: null,
});

export const SHOP: SchemaSnapshot = {
  datasourceId: 'shop',
  dialect: 'sqlite',
  schemaVersion: 'test',
  introspectedAt: '2024-01-01T00:00:00Z',
  tables: [
    table(
      'customers',
      [col('id', 'integer'), col('name', 'text'), col('email', 'text'), col('country', 'text')],
      ['id'],
    ),
    table(
      'orders',
      [
        col('id', 'integer'),
        col('customer_id', 'integer'),
        col('amount', 'float'),
        col('code', 'text'),
        col('placed', 'text'),
      ],
      ['id'],
      [{ columns: ['customer_id'], refTable: 'customers', refColumns: ['id'] }],
    ),
    table('salaries', [col('id', 'integer'), col('amount', 'integer')], ['id']),
  ],
};

/** Rows loaded into every engine by the execution test. `code` holds numbers as text, as Spider does. */
export const CUSTOMERS: [number, string, string | null, string][] = [
  [1, 'Ann', 'ann@example.com', 'FR'],
  [2, 'bob', null, 'DE'],
  [3, 'Cyd', 'cyd@example.com', 'FR'],
];
export const ORDERS: [number, number, number | null, string, string][] = [
  [1, 1, 10.5, '150', '2024-01-03'],
  [2, 1, 20, '98', '2024-02-10'],
  [3, 2, null, '1000', '2023-12-31'],
  [4, 3, 7, '20', '2024-02-11'],
];
