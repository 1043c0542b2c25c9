/**
 * Reads a dataset in Spider's layout: dev.json, tables.json, database/<db>/<db>.sqlite, and the
 * optional dev_gold_results.jsonl / dev_annotations.jsonl / parquet/<db>/<table>.parquet that
 * spider-dev-a adds. Every suite that takes `--data DIR` reads through this one module.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface SpiderQuestion {
  /** Position in dev.json. */
  readonly idx: number;
  readonly dbId: string;
  readonly question: string;
  /** Gold SQL (SQLite dialect). */
  readonly query: string;
  /** Spider's parsed form of the gold SQL (tables and columns are indices into tables.json). */
  readonly sql: any;
}

export interface SpiderTable {
  readonly dbId: string;
  readonly tableNames: readonly string[];
  readonly tableNamesOriginal: readonly string[];
  /** [tableIndex, name]; index -1 is `*`. */
  readonly columnNames: readonly (readonly [number, string])[];
  readonly columnNamesOriginal: readonly (readonly [number, string])[];
  readonly columnTypes: readonly string[];
  readonly primaryKeys: readonly (number | number[])[];
  readonly foreignKeys: readonly (readonly [number, number])[];
}

export interface GoldResult {
  readonly idx: number;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
  readonly ordered: boolean;
}

export interface Annotation {
  readonly idx: number;
  readonly hardness: 'easy' | 'medium' | 'hard' | 'extra';
  readonly executes: boolean;
  readonly dataIncomplete: boolean;
}

export interface SpiderDataset {
  readonly dir: string;
  readonly questions: readonly SpiderQuestion[];
  readonly schemas: ReadonlyMap<string, SpiderTable>;
  readonly gold: ReadonlyMap<number, GoldResult>;
  readonly annotations: ReadonlyMap<number, Annotation>;
  /** Database ids that have a SQLite file. */
  readonly databases: readonly string[];
  sqlitePath(dbId: string): string;
  /** parquet/<db>/ when the dataset ships it, else null. */
  parquetDir(dbId: string): string | null;
}

function readJsonl<T>(path: string): T[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

export function loadSpider(dirArg: string): SpiderDataset {
  const dir = resolve(dirArg);
  const dev = JSON.parse(readFileSync(join(dir, 'dev.json'), 'utf8')) as any[];
  const tables = JSON.parse(readFileSync(join(dir, 'tables.json'), 'utf8')) as any[];
  const questions: SpiderQuestion[] = dev.map((d, idx) => ({
    idx,
    dbId: d.db_id,
    question: d.question,
    query: d.query,
    sql: d.sql,
  }));
  const schemas = new Map<string, SpiderTable>(
    tables.map((t) => [
      t.db_id,
      {
        dbId: t.db_id,
        tableNames: t.table_names,
        tableNamesOriginal: t.table_names_original,
        columnNames: t.column_names,
        columnNamesOriginal: t.column_names_original,
        columnTypes: t.column_types,
        primaryKeys: t.primary_keys,
        foreignKeys: t.foreign_keys,
      },
    ]),
  );
  const gold = new Map(
    readJsonl<any>(join(dir, 'dev_gold_results.jsonl')).map((g) => [
      g.idx as number,
      { idx: g.idx, columns: g.columns, rows: g.rows, ordered: Boolean(g.ordered) },
    ]),
  );
  const annotations = new Map(
    readJsonl<any>(join(dir, 'dev_annotations.jsonl')).map((a) => [
      a.idx as number,
      {
        idx: a.idx,
        hardness: a.hardness,
        executes: a.executes !== false,
        dataIncomplete: Boolean(a.data_incomplete),
      },
    ]),
  );
  const dbDir = join(dir, 'database');
  const databases = existsSync(dbDir)
    ? readdirSync(dbDir)
        .filter((db) => existsSync(join(dbDir, db, `${db}.sqlite`)))
        .sort()
    : [];
  return {
    dir,
    questions,
    schemas,
    gold,
    annotations,
    databases,
    sqlitePath: (db) => join(dbDir, db, `${db}.sqlite`),
    parquetDir: (db) => {
      const p = join(dir, 'parquet', db);
      return existsSync(p) ? p : null;
    },
  };
}
