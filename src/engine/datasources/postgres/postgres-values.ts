/** PostgreSQL text-format values to cells (see `../cells.ts`), chosen by the column's type oid. */
import type { Cell } from '../adapter';
import { blobCell, decimalCell, integerCell, numberCell } from '../cells';
import type { TypeKind } from '../schema';

/** pg_type oids of the built-in types that matter. */
const OID = {
  bool: 16,
  bytea: 17,
  name: 19,
  int8: 20,
  int2: 21,
  int4: 23,
  text: 25,
  oid: 26,
  json: 114,
  float4: 700,
  float8: 701,
  bpchar: 1042,
  varchar: 1043,
  date: 1082,
  time: 1083,
  timestamp: 1114,
  timestamptz: 1184,
  interval: 1186,
  timetz: 1266,
  numeric: 1700,
  uuid: 2950,
  jsonb: 3802,
} as const;

const KIND_BY_OID = new Map<number, TypeKind>([
  [OID.bool, 'boolean'],
  [OID.bytea, 'blob'],
  [OID.int8, 'integer'],
  [OID.int2, 'integer'],
  [OID.int4, 'integer'],
  [OID.oid, 'integer'],
  [OID.numeric, 'decimal'],
  [OID.float4, 'float'],
  [OID.float8, 'float'],
  [OID.text, 'text'],
  [OID.varchar, 'text'],
  [OID.bpchar, 'text'],
  [OID.name, 'text'],
  [OID.uuid, 'text'],
  [OID.date, 'date'],
  [OID.time, 'time'],
  [OID.timetz, 'time'],
  [OID.timestamp, 'timestamp'],
  [OID.timestamptz, 'timestamp'],
  [OID.json, 'json'],
  [OID.jsonb, 'json'],
]);

export function kindOfOid(oid: number): TypeKind {
  return KIND_BY_OID.get(oid) ?? 'other';
}

type Parser = (text: string) => Cell;

const PARSERS = new Map<number, Parser>([
  [OID.bool, (t) => t === 't' || t === 'true'],
  [OID.int2, (t) => Number(t)],
  [OID.int4, (t) => Number(t)],
  [OID.oid, (t) => Number(t)],
  [OID.int8, (t) => integerCell(t)],
  [OID.numeric, decimalCell],
  [OID.float4, (t) => numberCell(Number(t))],
  [OID.float8, (t) => numberCell(Number(t))],
  // the session runs in UTC (SET LOCAL TimeZone), so an instant ends in +00
  [OID.timestamptz, (t) => t.replace(' ', 'T').replace(/\+00(:00)?$/, 'Z')],
  [OID.timestamp, (t) => t.replace(' ', 'T')],
  // bytea's text form is `\x` followed by hex
  [OID.bytea, (t) => (t.startsWith('\\x') ? blobCell(Buffer.from(t.slice(2), 'hex')) : t)],
]);

const asText: Parser = (t) => t;

/** Passed as `types` of every query: pg's global parsers stay untouched for anyone else. */
export const CELL_TYPES = {
  getTypeParser: (oid: number) => PARSERS.get(oid) ?? asText,
};
