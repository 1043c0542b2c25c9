/**
 * The embedded index store: one DuckDB file (`<storage.index.path>/index.duckdb`). Vectors are
 * FLOAT[] lists and similarity is `list_cosine_similarity` in DuckDB. Calls are serialised on one
 * connection, so a build's transaction never interleaves with another statement.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  DuckDBInstance,
  FLOAT,
  LIST,
  listValue,
  type DuckDBConnection,
  type DuckDBValue,
} from '@duckdb/node-api';
import { EngineError } from '../../errors';
import type { EntryKind, EntryMeta } from '../entries';
import type { StoredValue } from '../values/value-index';
import type { BuildRecord, ClearResult, IndexScope, IndexStore, SearchHit, StoredEntry } from './index-store';

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS index_builds (
     build_id VARCHAR PRIMARY KEY, namespace VARCHAR NOT NULL, embedding_model VARCHAR NOT NULL,
     datasource_id VARCHAR NOT NULL, index_version INTEGER NOT NULL, schema_version VARCHAR NOT NULL,
     state VARCHAR NOT NULL, built_at VARCHAR, entries INTEGER NOT NULL DEFAULT 0)`,
  `CREATE TABLE IF NOT EXISTS index_entries (
     build_id VARCHAR NOT NULL, namespace VARCHAR NOT NULL, embedding_model VARCHAR NOT NULL,
     datasource_id VARCHAR NOT NULL, kind VARCHAR NOT NULL, key VARCHAR NOT NULL, text VARCHAR NOT NULL,
     meta VARCHAR NOT NULL, vector FLOAT[] NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS index_values (
     build_id VARCHAR NOT NULL, datasource_id VARCHAR NOT NULL, table_name VARCHAR NOT NULL,
     column_name VARCHAR NOT NULL, value VARCHAR NOT NULL, frequency BIGINT NOT NULL)`,
];

/** Rows of a build, in every table that holds them. */
const BUILD_TABLES = ['index_entries', 'index_values'] as const;

const ENTRY_COLUMNS = 'e.datasource_id, e.kind, e.key, e.text, e.meta, e.vector';

export class DuckDbIndexStore implements IndexStore {
  private instance: DuckDBInstance | undefined;
  private conn: DuckDBConnection | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  /** `file` is the DuckDB file; `:memory:` for a throw-away store. */
  constructor(private readonly file: string) {}

  async open(): Promise<void> {
    if (this.conn) return;
    if (this.file !== ':memory:') mkdirSync(dirname(this.file), { recursive: true });
    try {
      this.instance = await DuckDBInstance.create(this.file);
      this.conn = await this.instance.connect();
    } catch (err) {
      throw new EngineError(
        'INDEX_STORE_UNAVAILABLE',
        `cannot open the index file ${this.file}: ${(err as Error).message}`,
      );
    }
    for (const sql of SCHEMA) await this.conn.run(sql);
    // A build still pending at open was cut off by a crash: its rows never became live.
    for (const table of BUILD_TABLES) {
      await this.conn.run(
        `DELETE FROM ${table} WHERE build_id IN (SELECT build_id FROM index_builds WHERE state = 'pending')`,
      );
    }
    await this.conn.run(`DELETE FROM index_builds WHERE state = 'pending'`);
  }

  beginBuild(scope: IndexScope, datasourceId: string, schemaVersion: string): Promise<string> {
    return this.serial(async (c) => {
      const buildId = randomUUID();
      await c.run(`INSERT INTO index_builds VALUES ($1, $2, $3, $4, 0, $5, 'pending', NULL, 0)`, [
        buildId,
        scope.namespace,
        scope.embeddingModel,
        datasourceId,
        schemaVersion,
      ]);
      return buildId;
    });
  }

  appendEntries(
    buildId: string,
    scope: IndexScope,
    datasourceId: string,
    entries: readonly StoredEntry[],
  ): Promise<void> {
    return this.serial(async (c) => {
      const appender = await c.createAppender('index_entries');
      const listType = LIST(FLOAT);
      for (const e of entries) {
        appender.appendVarchar(buildId);
        appender.appendVarchar(scope.namespace);
        appender.appendVarchar(scope.embeddingModel);
        appender.appendVarchar(datasourceId);
        appender.appendVarchar(e.kind);
        appender.appendVarchar(e.key);
        appender.appendVarchar(e.text);
        appender.appendVarchar(JSON.stringify(e.meta));
        appender.appendList(listValue(Array.from(e.vector)), listType);
        appender.endRow();
      }
      appender.closeSync();
    });
  }

  appendValues(buildId: string, values: readonly StoredValue[]): Promise<void> {
    return this.serial(async (c) => {
      const appender = await c.createAppender('index_values');
      for (const v of values) {
        appender.appendVarchar(buildId);
        appender.appendVarchar(v.datasourceId);
        appender.appendVarchar(v.table);
        appender.appendVarchar(v.column);
        appender.appendVarchar(v.value);
        appender.appendBigInt(BigInt(Math.max(0, Math.floor(v.frequency))));
        appender.endRow();
      }
      appender.closeSync();
    });
  }

  loadValues(scope: IndexScope): Promise<StoredValue[]> {
    return this.serial(async (c) => {
      const reader = await c.runAndReadAll(
        `SELECT v.datasource_id, v.table_name, v.column_name, v.value, v.frequency
         FROM index_values v JOIN index_builds b USING (build_id)
         WHERE b.state = 'live' AND b.namespace = $1 AND b.embedding_model = $2
         ORDER BY v.datasource_id, v.rowid`,
        [scope.namespace, scope.embeddingModel],
      );
      // Every column but the count is VARCHAR NOT NULL: the rows hold strings there.
      return (reader.getRowsJS() as [string, string, string, string, number | bigint][]).map((r) => ({
        datasourceId: r[0],
        table: r[1],
        column: r[2],
        value: r[3],
        frequency: Number(r[4]),
      }));
    });
  }

  commitBuild(buildId: string): Promise<BuildRecord> {
    return this.serial(async (c) => {
      await c.run('BEGIN TRANSACTION');
      try {
        const rows = await this.rows(
          c,
          `SELECT namespace, embedding_model, datasource_id, schema_version FROM index_builds WHERE build_id = $1 AND state = 'pending'`,
          [buildId],
        );
        const b = rows[0];
        if (!b) throw new EngineError('INDEX_BUILD_UNKNOWN', `no pending index build ${buildId}`);
        const scopeArgs = [b.namespace, b.embedding_model, b.datasource_id] as DuckDBValue[];
        const prev = await this.rows(
          c,
          `SELECT coalesce(max(index_version), 0) AS v FROM index_builds WHERE namespace = $1 AND embedding_model = $2 AND datasource_id = $3 AND state = 'live'`,
          scopeArgs,
        );
        const version = Number(prev[0]?.v ?? 0) + 1;
        const count = await this.rows(c, `SELECT count(*) AS n FROM index_entries WHERE build_id = $1`, [
          buildId,
        ]);
        const entries = Number(count[0]?.n ?? 0);
        const live = `SELECT build_id FROM index_builds WHERE namespace = $1 AND embedding_model = $2 AND datasource_id = $3 AND state = 'live'`;
        for (const table of BUILD_TABLES)
          await c.run(`DELETE FROM ${table} WHERE build_id IN (${live})`, scopeArgs);
        await c.run(`DELETE FROM index_builds WHERE build_id IN (${live})`, scopeArgs);
        const builtAt = new Date().toISOString();
        await c.run(
          `UPDATE index_builds SET state = 'live', index_version = $2, built_at = $3, entries = $4 WHERE build_id = $1`,
          [buildId, version, builtAt, entries],
        );
        await c.run('COMMIT');
        return {
          datasourceId: String(b.datasource_id),
          indexVersion: version,
          schemaVersion: String(b.schema_version),
          builtAt,
          entries,
        };
      } catch (err) {
        await c.run('ROLLBACK');
        throw err;
      }
    });
  }

  abortBuild(buildId: string): Promise<void> {
    return this.serial(async (c) => {
      for (const table of BUILD_TABLES) await c.run(`DELETE FROM ${table} WHERE build_id = $1`, [buildId]);
      await c.run(`DELETE FROM index_builds WHERE build_id = $1 AND state = 'pending'`, [buildId]);
    });
  }

  liveBuilds(scope: IndexScope): Promise<BuildRecord[]> {
    return this.serial(async (c) => {
      const rows = await this.rows(
        c,
        `SELECT datasource_id, index_version, schema_version, built_at, entries FROM index_builds
         WHERE namespace = $1 AND embedding_model = $2 AND state = 'live' ORDER BY datasource_id`,
        [scope.namespace, scope.embeddingModel],
      );
      return rows.map((r) => ({
        datasourceId: String(r.datasource_id),
        indexVersion: Number(r.index_version),
        schemaVersion: String(r.schema_version),
        builtAt: String(r.built_at),
        entries: Number(r.entries),
      }));
    });
  }

  models(namespace: string): Promise<string[]> {
    return this.serial(async (c) => {
      const rows = await this.rows(
        c,
        `SELECT DISTINCT embedding_model FROM index_builds WHERE namespace = $1 AND state = 'live' ORDER BY 1`,
        [namespace],
      );
      return rows.map((r) => String(r.embedding_model));
    });
  }

  loadEntries(scope: IndexScope): Promise<StoredEntry[]> {
    return this.serial(async (c) => {
      const rows = await this.rows(
        c,
        `SELECT ${ENTRY_COLUMNS} FROM index_entries e JOIN index_builds b USING (build_id)
         WHERE b.state = 'live' AND b.namespace = $1 AND b.embedding_model = $2 ORDER BY e.datasource_id, e.rowid`,
        [scope.namespace, scope.embeddingModel],
      );
      return rows.map(toEntry);
    });
  }

  search(
    scope: IndexScope,
    vector: Float32Array,
    options: {
      readonly k: number;
      readonly kinds?: readonly EntryKind[];
      readonly datasourceIds?: readonly string[];
    },
  ): Promise<SearchHit[]> {
    return this.serial(async (c) => {
      // Named parameters so the query vector can be typed FLOAT[] (a JS number list binds as DOUBLE/INTEGER).
      const args: Record<string, DuckDBValue> = {
        q: listValue(Array.from(vector)),
        ns: scope.namespace,
        model: scope.embeddingModel,
        k: Math.max(1, Math.floor(options.k)),
      };
      const filters: string[] = [];
      const inList = (prefix: string, values: readonly string[]) =>
        values
          .map((v, i) => {
            args[`${prefix}${i}`] = v;
            return `$${prefix}${i}`;
          })
          .join(', ');
      if (options.kinds?.length) filters.push(`e.kind IN (${inList('kind', options.kinds)})`);
      if (options.datasourceIds?.length)
        filters.push(`e.datasource_id IN (${inList('ds', options.datasourceIds)})`);
      const reader = await c.runAndReadAll(
        `SELECT ${ENTRY_COLUMNS}, list_cosine_similarity(e.vector, $q) AS score
         FROM index_entries e JOIN index_builds b USING (build_id)
         WHERE b.state = 'live' AND b.namespace = $ns AND b.embedding_model = $model ${filters.map((f) => `AND ${f}`).join(' ')}
         ORDER BY score DESC, e.key LIMIT $k`,
        args,
        { q: LIST(FLOAT) },
      );
      const rows = reader.getRowObjectsJS() as Record<string, any>[];
      return rows.map((r) => ({ entry: toEntry(r), score: Number(r.score) }));
    });
  }

  countByKind(scope: IndexScope): Promise<Record<string, number>> {
    return this.serial(async (c) => {
      const rows = await this.rows(
        c,
        `SELECT e.kind, count(*) AS n FROM index_entries e JOIN index_builds b USING (build_id)
         WHERE b.state = 'live' AND b.namespace = $1 AND b.embedding_model = $2 GROUP BY 1 ORDER BY 1`,
        [scope.namespace, scope.embeddingModel],
      );
      return Object.fromEntries(rows.map((r) => [String(r.kind), Number(r.n)]));
    });
  }

  dropDatasource(scope: IndexScope, datasourceId: string): Promise<number> {
    return this.serial(async (c) => {
      const args = [scope.namespace, scope.embeddingModel, datasourceId];
      const live = `SELECT build_id FROM index_builds WHERE namespace = $1 AND embedding_model = $2 AND datasource_id = $3 AND state = 'live'`;
      const n = await this.rows(
        c,
        `SELECT count(*) AS n FROM index_entries WHERE build_id IN (${live})`,
        args,
      );
      await c.run('BEGIN TRANSACTION');
      for (const table of BUILD_TABLES) await c.run(`DELETE FROM ${table} WHERE build_id IN (${live})`, args);
      await c.run(`DELETE FROM index_builds WHERE build_id IN (${live})`, args);
      await c.run('COMMIT');
      return Number(n[0]?.n ?? 0);
    });
  }

  clear(namespace: string): Promise<ClearResult> {
    return this.serial(async (c) => {
      const perDs = await this.rows(
        c,
        `SELECT datasource_id, count(*) AS n FROM index_entries WHERE namespace = $1 GROUP BY 1 ORDER BY 1`,
        [namespace],
      );
      const builds = await this.rows(c, `SELECT count(*) AS n FROM index_builds WHERE namespace = $1`, [
        namespace,
      ]);
      await c.run('BEGIN TRANSACTION');
      await c.run(
        `DELETE FROM index_values WHERE build_id IN (SELECT build_id FROM index_builds WHERE namespace = $1)`,
        [namespace],
      );
      await c.run(`DELETE FROM index_entries WHERE namespace = $1`, [namespace]);
      await c.run(`DELETE FROM index_builds WHERE namespace = $1`, [namespace]);
      await c.run('COMMIT');
      const datasources = Object.fromEntries(perDs.map((r) => [String(r.datasource_id), Number(r.n)]));
      return {
        datasources,
        entries: Object.values(datasources).reduce((a, b) => a + b, 0),
        builds: Number(builds[0]?.n ?? 0),
      };
    });
  }

  async close(): Promise<void> {
    await this.queue.catch(() => undefined);
    this.conn?.closeSync();
    this.instance?.closeSync();
    this.conn = undefined;
    this.instance = undefined;
  }

  private serial<T>(fn: (c: DuckDBConnection) => Promise<T>): Promise<T> {
    const run = this.queue.then(() => {
      if (!this.conn) throw new EngineError('INDEX_STORE_CLOSED', 'the index store is not open');
      return fn(this.conn);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async rows(
    c: DuckDBConnection,
    sql: string,
    args: DuckDBValue[] = [],
  ): Promise<Record<string, any>[]> {
    const reader = await c.runAndReadAll(sql, args);
    return reader.getRowObjectsJS() as Record<string, any>[];
  }
}

function toEntry(r: Record<string, any>): StoredEntry {
  return {
    datasourceId: String(r.datasource_id),
    kind: String(r.kind) as EntryKind,
    key: String(r.key),
    text: String(r.text),
    meta: JSON.parse(String(r.meta)) as EntryMeta,
    vector: Float32Array.from(r.vector as number[]),
  };
}
