/**
 * PostgreSQL through knex's pg pool. Each statement runs in its own `BEGIN READ ONLY` transaction
 * with `SET LOCAL statement_timeout`, over the extended protocol (so one statement only: no
 * `COMMIT; DROP ...` smuggled in). Rows are read through a server-side cursor (`DECLARE ...
 * NO SCROLL CURSOR` + `FETCH n`), so a large result never sits whole in memory. A statement a
 * cursor cannot hold (INSERT, SHOW, ...) is run as it is inside the same read-only transaction,
 * where PostgreSQL refuses any write (SQLSTATE 25006); COPY, which a read-only transaction lets
 * write server files, is refused before. Timeout or abort cancels the backend with
 * `pg_cancel_backend` from a side connection.
 */
import type { Client, QueryConfig } from 'pg';
import type { TableInfo } from '../schema';
import type { DatasourceConfig } from '../../../config/schema';
import type { SecretManager } from '../../../config/secrets';
import type { Cell, ResultColumn } from '../adapter';
import { BaseAdapter, type CatalogTable } from '../base-adapter';
import type { Cursor, StatementControl } from '../cursor';
import { DatasourceError, driverCode, type DatasourceErrorCode } from '../errors';
import { postgresRefusal } from '../statement-guard';
import { openRawPool, DEFAULT_POOL_MAX, resolveServerSettings, type RawPool } from '../knex-pool';
import { typeKind } from '../type-kind';
import { CELL_TYPES, kindOfOid } from './postgres-values';
import { readPostgresCatalog } from './postgres-catalog';

type PgClient = Client & { processID?: number };
type PgResult = { rows: Cell[][]; fields: { name: string; dataTypeID: number }[] };

const CURSOR = 'nl2sql_cursor';
/** SQLSTATEs of a statement DECLARE cannot wrap: syntax error, feature not supported. */
const NOT_A_CURSOR_QUERY = new Set(['42601', '0A000']);

export class PostgresAdapter extends BaseAdapter {
  private pool: RawPool<PgClient> | null = null;

  constructor(
    config: DatasourceConfig,
    private readonly secrets: SecretManager,
  ) {
    super('postgres', 'postgres', config);
  }

  protected async open(): Promise<void> {
    const s = resolveServerSettings(this.id, this.config.connection, this.secrets);
    const connection = s.url
      ? { connectionString: s.url, ssl: s.ssl || undefined }
      : {
          host: s.host,
          port: s.port,
          user: s.user,
          password: s.password,
          database: s.database,
          ssl: s.ssl || undefined,
        };
    this.pool = await openRawPool<PgClient>(
      {
        client: 'pg',
        connection: { ...connection, application_name: `nl2sql:${this.id}`, connectionTimeoutMillis: 10_000 },
        pool: { min: 0, max: this.config.connection.pool_max ?? DEFAULT_POOL_MAX },
        acquireConnectionTimeout: 15_000,
      },
      async (client) => {
        await client.query('SELECT 1');
      },
    );
  }

  protected async shut(): Promise<void> {
    await this.pool?.destroy();
    this.pool = null;
  }

  /** Block sampling: reads about `rows` rows' worth of pages, spread over the table. */
  protected override sampledTable(
    t: Pick<TableInfo, 'name' | 'schema'>,
    column: string,
    rows: number,
    tableRows: number | null,
  ): string {
    if (!tableRows || tableRows <= 0) return super.sampledTable(t, column, rows, tableRows);
    const percent = Math.min(100, Math.max(0.01, (100 * rows) / tableRows));
    return `${this.tableRef(t)} TABLESAMPLE SYSTEM (${percent.toFixed(4)})`;
  }

  protected quote(identifier: string): string {
    return `"${identifier.replace(/"/g, '""')}"`;
  }

  protected classify(error: unknown): DatasourceErrorCode {
    const code = driverCode(error);
    if (code === '25006') return 'DATASOURCE_READ_ONLY'; // read_only_sql_transaction
    if (code === '57014') return 'DATASOURCE_TIMEOUT'; // query_canceled (statement_timeout)
    if (/^(08|28|3D|53|57P)/.test(code) || /^(ECONN|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH)/.test(code))
      return 'DATASOURCE_UNAVAILABLE';
    // A backend killed mid-statement surfaces as the pg client's own errors, with no SQLSTATE.
    if (
      /Knex: Timeout acquiring|Connection terminated|not queryable|connection error/i.test(
        String((error as Error)?.message),
      )
    )
      return 'DATASOURCE_UNAVAILABLE';
    return 'DATASOURCE_QUERY_FAILED';
  }

  protected async openCursor(
    sql: string,
    params: readonly unknown[],
    control: StatementControl,
  ): Promise<Cursor> {
    const pool = this.pool;
    if (!pool) throw new Error('not connected');
    const client = await pool.acquire(control.signal);
    const pid = client.processID;
    const run = (text: string, values: readonly unknown[] = []) =>
      client.query({
        text,
        values: [...values],
        rowMode: 'array',
        types: CELL_TYPES,
        queryMode: 'extended',
      } as QueryConfig) as unknown as Promise<PgResult>;
    try {
      // our own fixed statements, in one round trip (simple protocol)
      await client.query(
        `BEGIN READ ONLY; SET LOCAL statement_timeout = ${Math.max(1, Math.ceil(control.timeoutMs))}; ` +
          `SET LOCAL TimeZone = 'UTC'; SAVEPOINT nl2sql_declare`,
      );
      // The last moment to stop: a statement stopped while it waited for the connection is never sent.
      control.beforeSend();
      control.setCanceller(() =>
        pool
          .withSideConnection((side) => side.query('SELECT pg_cancel_backend($1)', [pid]))
          .then(() => undefined),
      );
      try {
        await run(`DECLARE ${CURSOR} NO SCROLL CURSOR FOR ${sql}`, params);
        return new PgCursor(client, pool, (n) => run(`FETCH FORWARD ${n} FROM ${CURSOR}`));
      } catch (error) {
        if (!NOT_A_CURSOR_QUERY.has(driverCode(error))) throw error;
        const refusal = postgresRefusal(sql);
        if (refusal)
          throw new DatasourceError(
            'DATASOURCE_READ_ONLY',
            this.id,
            `the datasource is read-only; ${refusal}`,
          );
        await client.query('ROLLBACK TO SAVEPOINT nl2sql_declare');
        const result = await run(sql, params);
        return new PgCursor(client, pool, null, result);
      }
    } catch (error) {
      await client.query('ROLLBACK').then(
        () => pool.release(client),
        () => pool.release(client, true),
      );
      throw error;
    }
  }

  protected async readCatalog(): Promise<CatalogTable[]> {
    return readPostgresCatalog(
      (sql) => this.execute(sql, [], { timeoutMs: 15_000 }).then((r) => r.rows),
      typeKind,
    );
  }
}

class PgCursor implements Cursor {
  private cols: ResultColumn[] = [];
  private buffered: Cell[][] | null = null;
  private done = false;
  private pending: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly client: PgClient,
    private readonly pool: RawPool<PgClient>,
    private readonly fetch: ((n: number) => Promise<PgResult>) | null,
    whole?: PgResult,
  ) {
    if (whole) {
      this.setColumns(whole);
      this.buffered = whole.rows ?? [];
    }
  }

  get columns(): readonly ResultColumn[] {
    return this.cols;
  }

  async next(max: number): Promise<Cell[][]> {
    if (this.buffered) return this.buffered.splice(0, max);
    if (this.done || !this.fetch) return [];
    const fetching = this.fetch(max);
    this.pending = fetching.catch(() => undefined);
    const result = await fetching;
    this.setColumns(result);
    if (result.rows.length < max) this.done = true;
    return result.rows;
  }

  async close(): Promise<void> {
    await this.pending;
    await this.client.query('ROLLBACK').then(
      () => this.pool.release(this.client),
      () => this.pool.release(this.client, true),
    );
  }

  private setColumns(result: PgResult): void {
    if (this.cols.length || !result.fields) return;
    this.cols = result.fields.map((f) => ({ name: f.name, kind: kindOfOid(f.dataTypeID) }));
  }
}
