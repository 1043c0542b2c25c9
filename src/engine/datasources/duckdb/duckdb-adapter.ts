/**
 * DuckDB through `@duckdb/node-api`. The file is opened READ_ONLY (unless the engine passes
 * `writable` for the embedded demo it builds itself). DuckDB still allows some statements on a
 * read-only database (a TEMP table, COPY ... TO a file, ATTACH of another file), so every
 * statement is also classified by DuckDB's own parser and only SELECT and EXPLAIN run; and file
 * access outside the database is switched off (`enable_external_access=false`, locked).
 * A statement's connection is interrupted on timeout or abort.
 */
import { SERVICE_META_SCHEMA } from './meta-schema';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  DuckDBConnection,
  DuckDBInstance,
  StatementType,
  type DuckDBResult,
  type DuckDBValue,
} from '@duckdb/node-api';
import type { TableInfo } from '../schema';
import { DEFAULT_POOL_MAX, type DatasourceConfig } from '../../../config/schema';
import type { Cell, ResultColumn } from '../adapter';
import { BaseAdapter, type CatalogTable } from '../base-adapter';
import { commentOf } from '../comments';
import type { Cursor, StatementControl } from '../cursor';
import { DatasourceError, type DatasourceErrorCode } from '../errors';
import { Semaphore } from '../semaphore';
import { typeKind } from '../type-kind';
import { duckdbCell } from './duckdb-values';

const ALLOWED_STATEMENTS = new Set<number>([StatementType.SELECT, StatementType.EXPLAIN]);

export interface DuckdbOptions {
  /** Open the file read-write: only for the embedded demo the engine builds itself. Statements
   * are still limited to SELECT and EXPLAIN. */
  readonly writable?: boolean;
}

export class DuckdbAdapter extends BaseAdapter {
  private instance: DuckDBInstance | null = null;
  private readonly slots: Semaphore;
  private readonly path: string;

  constructor(
    config: DatasourceConfig,
    private readonly options: DuckdbOptions = {},
  ) {
    super('duckdb', 'duckdb', config);
    this.path = resolve(config.connection.path ?? '');
    this.slots = new Semaphore(config.connection.pool_max ?? DEFAULT_POOL_MAX);
  }

  protected async open(): Promise<void> {
    if (!existsSync(this.path)) {
      throw new DatasourceError(
        'DATASOURCE_UNAVAILABLE',
        this.id,
        `the DuckDB file ${this.path} does not exist`,
      );
    }
    const instance = await DuckDBInstance.create(this.path, {
      access_mode: this.options.writable ? 'READ_WRITE' : 'READ_ONLY',
      enable_external_access: 'false',
      lock_configuration: 'true',
    });
    try {
      const conn = await instance.connect();
      try {
        await conn.run('SELECT 1');
      } finally {
        conn.closeSync();
      }
    } catch (error) {
      instance.closeSync();
      throw error;
    }
    this.instance = instance;
  }

  protected async shut(): Promise<void> {
    this.instance?.closeSync();
    this.instance = null;
  }

  /** Reservoir sampling over the whole table (DuckDB reads a large column fast). */
  protected override sampledTable(
    t: Pick<TableInfo, 'name' | 'schema'>,
    _column: string,
    rows: number,
  ): string {
    return `${this.tableRef(t)} TABLESAMPLE reservoir(${Math.floor(rows)} ROWS)`;
  }

  protected quote(identifier: string): string {
    return `"${identifier.replace(/"/g, '""')}"`;
  }

  protected classify(error: unknown): DatasourceErrorCode {
    const message = error instanceof Error ? error.message : String(error);
    if (/read-only mode|read only mode|Cannot execute statement of type/i.test(message))
      return 'DATASOURCE_READ_ONLY';
    if (/INTERRUPT/i.test(message)) return 'DATASOURCE_TIMEOUT';
    if (/Connection Error|IO Error|database has been closed/i.test(message)) return 'DATASOURCE_UNAVAILABLE';
    return 'DATASOURCE_QUERY_FAILED';
  }

  protected async openCursor(
    sql: string,
    params: readonly unknown[],
    control: StatementControl,
  ): Promise<Cursor> {
    const instance = this.instance;
    if (!instance) throw new DatasourceError('DATASOURCE_UNAVAILABLE', this.id, 'not connected');
    const release = await this.slots.acquire(control.signal);
    let conn: DuckDBConnection | null = null;
    try {
      conn = await DuckDBConnection.create(instance);
      const c = conn;
      // The last moment to stop: a statement stopped while it waited for a slot is never parsed or run.
      control.beforeSend();
      control.setCanceller(() => c.interrupt());
      const extracted = await conn.extractStatements(sql);
      if (extracted.count !== 1) {
        throw new DatasourceError(
          'DATASOURCE_QUERY_FAILED',
          this.id,
          `expected one statement, got ${extracted.count}`,
        );
      }
      const prepared = await extracted.prepare(0);
      const statementType = prepared.statementType;
      if (!ALLOWED_STATEMENTS.has(statementType)) {
        prepared.destroySync();
        throw new DatasourceError(
          'DATASOURCE_READ_ONLY',
          this.id,
          `the datasource is read-only; the statement was refused: ${StatementType[statementType] ?? 'this'} statements do not run here (only SELECT and EXPLAIN)`,
        );
      }
      if (params.length) prepared.bind(params.map(toDuckdbParam));
      const result = await prepared.stream();
      return new DuckdbCursor(result, c, () => {
        prepared.destroySync();
        c.closeSync();
        release();
      });
    } catch (error) {
      conn?.closeSync();
      release();
      throw error;
    }
  }

  protected async readCatalog(): Promise<CatalogTable[]> {
    const rows = async (sql: string) => (await this.execute(sql, [], { timeoutMs: 10_000 })).rows;
    const where = `database_name = current_database() AND NOT internal AND schema_name NOT IN ('information_schema', 'pg_catalog', '${SERVICE_META_SCHEMA}')`;
    const tables = await rows(
      `SELECT schema_name, table_name, estimated_size, comment FROM duckdb_tables() WHERE ${where} ` +
        `UNION ALL SELECT schema_name, view_name, NULL, comment FROM duckdb_views() WHERE ${where}`,
    );
    const columns = await rows(
      `SELECT schema_name, table_name, column_name, data_type, is_nullable, comment FROM duckdb_columns() WHERE ${where} ORDER BY schema_name, table_name, column_index`,
    );
    const constraints = await rows(
      `SELECT schema_name, table_name, constraint_type, to_json(constraint_column_names)::VARCHAR, referenced_table, ` +
        `to_json(referenced_column_names)::VARCHAR FROM duckdb_constraints() WHERE database_name = current_database() ` +
        `AND constraint_type IN ('PRIMARY KEY', 'FOREIGN KEY') ORDER BY schema_name, table_name, constraint_index`,
    );
    const key = (schema: Cell | undefined, name: Cell | undefined) => `${String(schema)}.${String(name)}`;
    return tables.map(([schema, name, estimate, comment]) => {
      const k = key(schema, name);
      const pk = constraints.find((c) => key(c[0], c[1]) === k && c[2] === 'PRIMARY KEY');
      return {
        name: String(name),
        schema: schema === 'main' ? null : String(schema),
        columns: columns
          .filter((c) => key(c[0], c[1]) === k)
          .map((c) => ({
            name: String(c[2]),
            type: String(c[3]),
            kind: typeKind(String(c[3]), 'duckdb'),
            nullable: c[4] === true,
            ...commentOf(c[5]),
          })),
        primaryKey: pk ? (JSON.parse(String(pk[3])) as string[]) : [],
        foreignKeys: constraints
          .filter((c) => key(c[0], c[1]) === k && c[2] === 'FOREIGN KEY')
          .map((c) => ({
            columns: JSON.parse(String(c[3])) as string[],
            refTable: String(c[4]),
            refColumns: JSON.parse(String(c[5])) as string[],
          })),
        rowCountEstimate: estimate === null || estimate === undefined ? null : Number(estimate),
        ...commentOf(comment),
      };
    });
  }
}

/** DuckDB hands out chunks of ~2048 rows; this cuts them to the batch sizes asked for. */
class DuckdbCursor implements Cursor {
  readonly columns: readonly ResultColumn[];
  private buffer: Cell[][] = [];
  private done = false;
  private pending: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly result: DuckDBResult,
    private readonly conn: DuckDBConnection,
    private readonly release: () => void,
  ) {
    const types = result.columnTypes();
    this.columns = result
      .columnNames()
      .map((name, i) => ({ name, kind: typeKind(String(types[i]), 'duckdb') }));
  }

  async next(max: number): Promise<Cell[][]> {
    while (this.buffer.length < max && !this.done) {
      const fetching = this.result.fetchChunk();
      this.pending = fetching.catch(() => undefined);
      const chunk = await fetching;
      if (!chunk || chunk.rowCount === 0) {
        this.done = true;
        break;
      }
      for (const row of chunk.getRows()) this.buffer.push(row.map(duckdbCell));
    }
    return this.buffer.splice(0, max);
  }

  async close(): Promise<void> {
    if (!this.done) this.conn.interrupt();
    // a fetch that lost a race with the timeout must finish before the connection goes
    await this.pending;
    this.release();
  }
}

function toDuckdbParam(value: unknown): DuckDBValue {
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  return value as DuckDBValue;
}
