/**
 * A SchemaSnapshot of a SQLite file, read with better-sqlite3. Column kinds follow SQLite's type
 * affinity of the declared type, except that a date/time/boolean column whose values are stored as
 * text is text (that is what it compares as in SQLite). With `samples`, each column also gets a few
 * distinct stored values. The benches keep this reader of their own so that they measure the plan
 * layer and the index alone, with no datasource adapter in the loop.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import type {
  ColumnInfo,
  ForeignKey,
  SchemaSnapshot,
  TableInfo,
  TypeKind,
} from '../../src/engine/datasources/schema';
import type { ValueSource } from '../../src/engine/index/values/collect';

export function kindOfDeclared(declared: string): TypeKind {
  const t = declared.toUpperCase();
  if (t.includes('INT')) return 'integer';
  if (/CHAR|CLOB|TEXT/.test(t)) return 'text';
  if (t === '' || t.includes('BLOB')) return 'other';
  if (/REAL|FLOA|DOUB/.test(t)) return 'float';
  if (/BOOL/.test(t)) return 'boolean';
  if (/TIMESTAMP|DATETIME/.test(t)) return 'timestamp';
  if (/DATE/.test(t)) return 'date';
  if (/TIME/.test(t)) return 'time';
  return 'decimal';
}

export function introspectSqlite(
  path: string,
  datasourceId: string,
  options: { readonly samples?: number } = {},
): SchemaSnapshot {
  const samples = options.samples ?? 0;
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const names = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
      )
      .all() as { name: string }[];
    const tables: TableInfo[] = names.map(({ name }) => {
      const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
      const info = db.prepare(`PRAGMA table_info(${q(name)})`).all() as {
        name: string;
        type: string;
        notnull: number;
        pk: number;
      }[];
      const fks = db.prepare(`PRAGMA foreign_key_list(${q(name)})`).all() as {
        id: number;
        table: string;
        from: string;
        to: string | null;
      }[];
      const columns: ColumnInfo[] = info.map((c) => {
        let kind = kindOfDeclared(c.type);
        if (['date', 'timestamp', 'time', 'boolean', 'decimal', 'other'].includes(kind)) {
          const classes = db
            .prepare(
              `SELECT DISTINCT typeof(${q(c.name)}) AS t FROM ${q(name)} WHERE ${q(c.name)} IS NOT NULL`,
            )
            .all() as { t: string }[];
          const set = new Set(classes.map((x) => x.t));
          if (set.has('text')) kind = 'text';
          else if (set.size && [...set].every((x) => x === 'integer'))
            kind = kind === 'boolean' ? 'boolean' : 'integer';
          else if (set.size) kind = kind === 'decimal' || kind === 'other' ? 'float' : kind;
        }
        const sampleValues = samples > 0 ? sampleValuesOf(db, q(name), q(c.name), samples) : [];
        return { name: c.name, type: c.type, kind, nullable: c.notnull === 0, sampleValues };
      });
      return {
        name,
        schema: null,
        columns,
        primaryKey: info
          .filter((c) => c.pk > 0)
          .sort((a, b) => a.pk - b.pk)
          .map((c) => c.name),
        foreignKeys: foreignKeysOf(fks),
        rowCountEstimate: null,
      };
    });
    // The version digests the structure only, as the adapters' does: samples do not change it.
    const shape = tables.map((t) => ({ ...t, columns: t.columns.map((c) => ({ ...c, sampleValues: [] })) }));
    const schemaVersion = createHash('sha256').update(JSON.stringify(shape)).digest('hex').slice(0, 16);
    return {
      datasourceId,
      dialect: 'sqlite',
      tables,
      schemaVersion,
      introspectedAt: new Date().toISOString(),
    };
  } finally {
    db.close();
  }
}

/** One foreign key per constraint id: a composite key lists its columns in order. */
function foreignKeysOf(
  rows: readonly { id: number; table: string; from: string; to: string | null }[],
): ForeignKey[] {
  const byId = new Map<number, { columns: string[]; refTable: string; refColumns: string[] }>();
  for (const fk of rows) {
    const fkEntry = byId.get(fk.id) ?? { columns: [], refTable: fk.table, refColumns: [] };
    fkEntry.columns.push(fk.from);
    if (fk.to) fkEntry.refColumns.push(fk.to);
    byId.set(fk.id, fkEntry);
  }
  return [...byId.values()];
}

function sampleValuesOf(
  db: Database.Database,
  table: string,
  column: string,
  n: number,
): (string | number)[] {
  try {
    const rows = db
      .prepare(`SELECT DISTINCT ${column} AS v FROM ${table} WHERE ${column} IS NOT NULL LIMIT ${n}`)
      .all() as { v: unknown }[];
    return rows
      .map((r) => r.v)
      .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
  } catch {
    return [];
  }
}

/**
 * The value index's source over a SQLite file, the same SQL the service's adapter sends (most
 * frequent values first, the first rows of a table past the scan bound). Close it after the build.
 */
export function sqliteValueSource(path: string): ValueSource & { close(): void } {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
  return {
    async distinctValues(table, column, options) {
      const col = q(column);
      const from =
        options.sampleRows !== null
          ? `(SELECT ${col} FROM ${q(table.name)} WHERE ${col} IS NOT NULL LIMIT ${Math.floor(options.sampleRows)}) sampled`
          : q(table.name);
      const rows = db
        .prepare(
          `SELECT ${col} AS v, COUNT(*) AS n FROM ${from} WHERE ${col} IS NOT NULL GROUP BY ${col} ORDER BY n DESC, v LIMIT ${Math.floor(options.limit)}`,
        )
        .raw()
        .all() as [unknown, number][];
      return rows
        .filter((r) => typeof r[0] === 'string')
        .map((r) => ({ value: r[0] as string, count: Number(r[1]) }));
    },
    close: () => db.close(),
  };
}
