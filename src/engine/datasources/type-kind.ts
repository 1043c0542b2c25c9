/**
 * Maps a declared column type to its kind. One table of patterns serves every dialect: the type
 * names overlap (INTEGER, VARCHAR, TIMESTAMP) and the dialect-only ones do not collide. SQLite's
 * affinity rules (a type containing INT is an integer, CHAR/CLOB/TEXT is text...) come last.
 */
import type { Dialect, TypeKind } from './schema';

const RULES: [RegExp, TypeKind][] = [
  [/^(bool|boolean|bit\(1\)|tinyint\(1\))$/, 'boolean'],
  [
    /^(timestamp|datetime|smalldatetime|timestamptz|timestamp with(out)? time zone|timestamp_[smn]s?|timestamp\(\d\)( with(out)? time zone)?|datetime\(\d\))/,
    'timestamp',
  ],
  [/^date$/, 'date'],
  [/^(time|timetz|time with(out)? time zone|time\(\d\)( with(out)? time zone)?)$/, 'time'],
  [/^(interval)/, 'other'],
  [/^(numeric|decimal|dec|money|fixed|number)\b/, 'decimal'],
  [/^(real|float|double|float4|float8|double precision)\b/, 'float'],
  [
    /^(hugeint|uhugeint|bigint|int8|ubigint|integer|int|int4|int2|smallint|tinyint|mediumint|utinyint|usmallint|uinteger|serial|bigserial|smallserial|year|oid|bignum|varint)\b/,
    'integer',
  ],
  [/^(json|jsonb)$/, 'json'],
  [/^(bytea|blob|tinyblob|mediumblob|longblob|binary|varbinary|bit varying|bit|bitstring)\b/, 'blob'],
  [
    /^(text|tinytext|mediumtext|longtext|char|character|varchar|character varying|nvarchar|nchar|string|uuid|enum|set|citext|name|bpchar|clob)\b/,
    'text',
  ],
];

/** SQLite affinity (https://www.sqlite.org/datatype3.html, 3.1), in its order; SQLite only, since
 * elsewhere `point` is not an integer. */
const SQLITE_AFFINITY: [RegExp, TypeKind][] = [
  [/int/, 'integer'],
  [/char|clob|text/, 'text'],
  [/blob/, 'blob'],
  [/real|floa|doub/, 'float'],
];

export function typeKind(declared: string | null | undefined, dialect?: Dialect): TypeKind {
  const t = (declared ?? '').trim().toLowerCase().replace(/\s+/g, ' ');
  if (!t) return 'other';
  if (t.endsWith('[]')) return 'other'; // arrays
  for (const [re, kind] of RULES) if (re.test(t)) return kind;
  if (dialect === 'sqlite') for (const [re, kind] of SQLITE_AFFINITY) if (re.test(t)) return kind;
  return dialect === 'sqlite' ? 'decimal' : 'other'; // SQLite's NUMERIC affinity is the fallback
}
