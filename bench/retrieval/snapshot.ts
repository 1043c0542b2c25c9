/**
 * A SchemaSnapshot read straight from a Spider SQLite file (PRAGMA table_info and foreign_key_list,
 * plus a few distinct values per column), so the bench does not depend on the datasource adapters.
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import type {
  ColumnInfo,
  ForeignKey,
  SchemaSnapshot,
  TableInfo,
  TypeKind,
} from '../../src/engine/datasources/schema';

const SAMPLE_VALUES = 5;

function kindOf(declared: string): TypeKind {
  const t = declared.toLowerCase();
  if (/int/.test(t)) return 'integer';
  if (/(dec|numeric|money)/.test(t)) return 'decimal';
  if (/(real|floa|doub)/.test(t)) return 'float';
  if (/bool/.test(t)) return 'boolean';
  if (/datetime|timestamp/.test(t)) return 'timestamp';
  if (/date/.test(t)) return 'date';
  if (/time/.test(t)) return 'time';
  if (/blob/.test(t)) return 'blob';
  if (/(char|text|clob|string)/.test(t) || !t) return 'text';
  return 'other';
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export function sqliteSnapshot(datasourceId: string, file: string): SchemaSnapshot {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const names = db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid`,
      )
      .all() as { name: string }[];
    const tables: TableInfo[] = names.map(({ name }) => {
      const info = db.prepare(`PRAGMA table_info(${quote(name)})`).all() as {
        name: string;
        type: string;
        notnull: number;
        pk: number;
      }[];
      const fks = db.prepare(`PRAGMA foreign_key_list(${quote(name)})`).all() as {
        id: number;
        table: string;
        from: string;
        to: string | null;
      }[];
      const columns: ColumnInfo[] = info.map((c) => {
        let sampleValues: (string | number | boolean)[];
        try {
          sampleValues = (
            db
              .prepare(
                `SELECT DISTINCT ${quote(c.name)} AS v FROM ${quote(name)} WHERE ${quote(c.name)} IS NOT NULL LIMIT ${SAMPLE_VALUES}`,
              )
              .all() as { v: unknown }[]
          )
            .map((r) => r.v)
            .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
        } catch {
          sampleValues = [];
        }
        return { name: c.name, type: c.type, kind: kindOf(c.type), nullable: !c.notnull, sampleValues };
      });
      const byId = new Map<number, ForeignKey>();
      for (const fk of fks) {
        const prev = byId.get(fk.id);
        byId.set(fk.id, {
          columns: [...(prev?.columns ?? []), fk.from],
          refTable: fk.table,
          refColumns: fk.to ? [...(prev?.refColumns ?? []), fk.to] : [...(prev?.refColumns ?? [])],
        });
      }
      return {
        name,
        schema: null,
        columns,
        primaryKey: info
          .filter((c) => c.pk > 0)
          .sort((a, b) => a.pk - b.pk)
          .map((c) => c.name),
        foreignKeys: [...byId.values()],
        rowCountEstimate: null,
      };
    });
    const shape = tables.map((t) => ({ ...t, columns: t.columns.map((c) => ({ ...c, sampleValues: [] })) }));
    return {
      datasourceId,
      dialect: 'sqlite',
      tables,
      schemaVersion: createHash('sha256').update(JSON.stringify(shape)).digest('hex').slice(0, 16),
      introspectedAt: new Date().toISOString(),
    };
  } finally {
    db.close();
  }
}
