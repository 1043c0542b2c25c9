/** The pure parts shared by the adapters: JSON-safe cells, type kinds and schema_version. */
import { decimalCell, genericCell, integerCell, numberCell } from '../../../src/engine/datasources/cells';
import type { TableInfo } from '../../../src/engine/datasources/schema';
import { schemaVersionOf } from '../../../src/engine/datasources/schema-version';
import { typeKind } from '../../../src/engine/datasources/type-kind';

describe('cells', () => {
  it('keeps integers within 2^53 as numbers and the rest as exact strings', () => {
    expect(integerCell(9007199254740991n)).toBe(9007199254740991);
    expect(integerCell('9007199254740992')).toBe('9007199254740992');
    expect(integerCell(-9007199254740993n)).toBe('-9007199254740993');
  });

  it('gives a decimal as a number only when the number prints back to the same decimal', () => {
    expect(decimalCell('12.50')).toBe(12.5);
    expect(decimalCell('-0.000')).toBe(0);
    expect(decimalCell('0.1')).toBe(0.1);
    expect(decimalCell('12345678901234567.1')).toBe('12345678901234567.1');
    expect(decimalCell('99999999999999999999')).toBe('99999999999999999999');
    expect(decimalCell('NaN')).toBe('NaN');
  });

  it('turns what JSON cannot hold into strings', () => {
    expect(numberCell(Infinity)).toBe('Infinity');
    expect(genericCell(new Date('2024-01-02T03:04:05Z'))).toBe('2024-01-02T03:04:05.000Z');
    expect(genericCell(Buffer.from([0xaa, 0xbb]))).toBe('qrs=');
    expect(genericCell({ a: 1n })).toBe('{"a":1}');
  });
});

describe('typeKind', () => {
  it.each([
    ['character varying(40)', undefined, 'text'],
    ['numeric(10,2)', undefined, 'decimal'],
    ['timestamp with time zone', undefined, 'timestamp'],
    ['int(11) unsigned', undefined, 'integer'],
    ['tinyint(1)', undefined, 'boolean'],
    ['DOUBLE', undefined, 'float'],
    ['interval', undefined, 'other'],
    ['point', 'postgres', 'other'],
    ['INTEGER[]', 'duckdb', 'other'],
    ['jsonb', undefined, 'json'],
    ['UNSIGNED BIG INT', 'sqlite', 'integer'],
    ['BIGNUMBER', 'sqlite', 'decimal'], // no INT in it: NUMERIC affinity
    ['NATIVE CHARACTER(70)', 'sqlite', 'text'],
  ] as const)('%s (%s) is %s', (declared, dialect, kind) => {
    expect(typeKind(declared, dialect)).toBe(kind);
  });
});

describe('schemaVersionOf', () => {
  const t = (name: string, extra: Partial<TableInfo> = {}): TableInfo => ({
    name,
    schema: null,
    columns: [{ name: 'id', type: 'INTEGER', kind: 'integer', nullable: false, sampleValues: [1, 2] }],
    primaryKey: ['id'],
    foreignKeys: [],
    rowCountEstimate: 10,
    ...extra,
  });

  it('ignores table order, samples and estimates', () => {
    const a = schemaVersionOf([t('a'), t('b')]);
    const b = schemaVersionOf([
      t('b', { rowCountEstimate: 99 }),
      t('a', {
        columns: [{ name: 'id', type: 'INTEGER', kind: 'integer', nullable: false, sampleValues: [7] }],
      }),
    ]);
    expect(a).toBe(b);
  });

  it('changes with nullability, a key or a column', () => {
    const base = schemaVersionOf([t('a')]);
    expect(schemaVersionOf([t('a', { primaryKey: [] })])).not.toBe(base);
    expect(
      schemaVersionOf([
        t('a', {
          columns: [{ name: 'id', type: 'INTEGER', kind: 'integer', nullable: true, sampleValues: [] }],
        }),
      ]),
    ).not.toBe(base);
    expect(
      schemaVersionOf([t('a', { foreignKeys: [{ columns: ['id'], refTable: 'b', refColumns: ['id'] }] })]),
    ).not.toBe(base);
  });
});
