/** Small schema snapshots for the index tests: a shop, a school and a flights database. */
import { createHash } from 'node:crypto';
import type { ColumnInfo, SchemaSnapshot, TableInfo, TypeKind } from '../../src/engine/datasources/schema';

type Col = [name: string, kind: TypeKind, samples?: (string | number)[]];

export function table(
  name: string,
  cols: Col[],
  opts: { pk?: string[]; fks?: { columns: string[]; refTable: string; refColumns: string[] }[] } = {},
): TableInfo {
  const columns: ColumnInfo[] = cols.map(([n, kind, samples]) => ({
    name: n,
    type:
      kind === 'integer'
        ? 'INTEGER'
        : kind === 'decimal'
          ? 'DECIMAL(10,2)'
          : kind === 'date'
            ? 'DATE'
            : 'VARCHAR',
    kind,
    nullable: true,
    sampleValues: samples ?? [],
  }));
  return {
    name,
    schema: null,
    columns,
    primaryKey: opts.pk ?? [],
    foreignKeys: opts.fks ?? [],
    rowCountEstimate: null,
  };
}

export function snapshot(datasourceId: string, tables: TableInfo[], salt = ''): SchemaSnapshot {
  const schemaVersion = createHash('sha256')
    .update(JSON.stringify(tables.map((t) => [t.name, t.columns.map((c) => c.name)])) + salt)
    .digest('hex')
    .slice(0, 16);
  return { datasourceId, dialect: 'sqlite', tables, schemaVersion, introspectedAt: new Date().toISOString() };
}

export const shop = (): SchemaSnapshot =>
  snapshot('shop', [
    table(
      'customers',
      [
        ['customer_id', 'integer'],
        ['full_name', 'text', ['Ada Lovelace']],
        ['country', 'text', ['France', 'Peru']],
        ['email', 'text'],
      ],
      { pk: ['customer_id'] },
    ),
    table(
      'orders',
      [
        ['order_id', 'integer'],
        ['customer_id', 'integer'],
        ['orderDate', 'date'],
        ['total_amt', 'decimal'],
      ],
      {
        pk: ['order_id'],
        fks: [{ columns: ['customer_id'], refTable: 'customers', refColumns: ['customer_id'] }],
      },
    ),
    table(
      'order_items',
      [
        ['order_id', 'integer'],
        ['product_id', 'integer'],
        ['qty', 'integer'],
      ],
      {
        fks: [
          { columns: ['order_id'], refTable: 'orders', refColumns: ['order_id'] },
          { columns: ['product_id'], refTable: 'products', refColumns: ['product_id'] },
        ],
      },
    ),
    table(
      'products',
      [
        ['product_id', 'integer'],
        ['ProductName', 'text', ['Teapot', 'Kettle']],
        ['unit_price', 'decimal'],
      ],
      { pk: ['product_id'] },
    ),
  ]);

export const school = (): SchemaSnapshot =>
  snapshot('school', [
    table(
      'student',
      [
        ['StuID', 'integer'],
        ['LName', 'text'],
        ['Fname', 'text'],
        ['Age', 'integer'],
        ['Major', 'text', ['Physics']],
      ],
      { pk: ['StuID'] },
    ),
    table(
      'course',
      [
        ['course_id', 'integer'],
        ['title', 'text', ['Algebra']],
        ['credits', 'integer'],
      ],
      { pk: ['course_id'] },
    ),
    table(
      'enrollment',
      [
        ['StuID', 'integer'],
        ['course_id', 'integer'],
        ['grade', 'text'],
      ],
      {
        fks: [
          { columns: ['StuID'], refTable: 'student', refColumns: ['StuID'] },
          { columns: ['course_id'], refTable: 'course', refColumns: ['course_id'] },
        ],
      },
    ),
  ]);

export const flights = (): SchemaSnapshot =>
  snapshot('flights', [
    table(
      'airlines',
      [
        ['uid', 'integer'],
        ['Airline', 'text', ['United Airlines']],
        ['Country', 'text', ['USA']],
      ],
      { pk: ['uid'] },
    ),
    table(
      'airports',
      [
        ['AirportCode', 'text', ['ABZ']],
        ['City', 'text', ['Aberdeen']],
        ['AirportName', 'text'],
      ],
      { pk: ['AirportCode'] },
    ),
    table(
      'flights',
      [
        ['FlightNo', 'integer'],
        ['SourceAirport', 'text'],
        ['DestAirport', 'text'],
      ],
      {
        fks: [
          { columns: ['SourceAirport'], refTable: 'airports', refColumns: ['AirportCode'] },
          { columns: ['DestAirport'], refTable: 'airports', refColumns: ['AirportCode'] },
        ],
      },
    ),
  ]);
