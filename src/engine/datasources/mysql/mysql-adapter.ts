/**
 * MySQL and MariaDB through knex's mysql2 pool. Each connection is made read-only for the session
 * (`SET SESSION TRANSACTION READ ONLY`, repeated before each statement in case a statement changed
 * it) and each statement runs in `START TRANSACTION READ ONLY`. The session setting matters: DDL
 * commits the open transaction implicitly and would otherwise escape it. The server-side timeout
 * is `max_statement_time` (seconds) on MariaDB and `max_execution_time` (ms, SELECT only) on MySQL;
 * on timeout or abort the adapter also sends `KILL QUERY` from a side connection. Statements that
 * a read-only transaction does not stop (SET GLOBAL, KILL, INTO OUTFILE...) are refused before
 * they are sent (`statement-guard.ts`).
 *
 * Values are never spliced into the SQL text: every statement is a server-side prepared statement
 * (mysql2's `execute`) and its values travel as bound parameters. mysql2's `query` would escape
 * them on the client with backslashes, which a server whose sql_mode has NO_BACKSLASH_ESCAPES does
 * not honour (a quote after a backslash then ends the string: SQL injection). The session's
 * sql_mode is also set by the service (SERVICE_SQL_MODE), because the compiled SQL's meaning
 * depends on it even with bound values: LIKE's escape character is the backslash only without
 * NO_BACKSLASH_ESCAPES, and ANSI_QUOTES, PIPES_AS_CONCAT or ORACLE mode would change how the
 * compiler's (and the catalog's) text parses. Rows stream through mysql2's result stream, which
 * pauses the socket while the consumer is behind; prepared statements answer in the binary
 * protocol, read by `castBinaryCell`.
 */
import type { Readable } from 'node:stream';
import { Types } from 'mysql2';
import type { DatasourceConfig } from '../../../config/schema';
import type { SecretManager } from '../../../config/secrets';
import type { Cell, ResultColumn } from '../adapter';
import { BaseAdapter, type CatalogTable } from '../base-adapter';
import { parseUrl } from '../connection-config';
import type { Cursor, StatementControl } from '../cursor';
import { DatasourceError, driverCode, type DatasourceErrorCode } from '../errors';
import { mysqlRefusal } from '../statement-guard';
import { openRawPool, DEFAULT_POOL_MAX, resolveServerSettings, type RawPool } from '../knex-pool';
import { typeKind } from '../type-kind';
import { readMysqlCatalog } from './mysql-catalog';
import { BINARY_CHARSET, castBinaryCell, finishRow, kindOfField, toMysqlParam } from './mysql-values';

interface FieldDef {
  readonly name: string;
  readonly columnType: number;
  readonly characterSet: number;
}
interface MysqlQuery {
  on(event: 'fields', listener: (fields: FieldDef[] | undefined) => void): MysqlQuery;
  stream(options?: { highWaterMark?: number }): Readable;
}
interface MysqlConnection {
  readonly threadId: number;
  /** A server-side prepared statement (cached per connection, see PREPARED_PER_CONNECTION). */
  execute(options: {
    sql: string;
    values?: unknown[];
    rowsAsArray?: boolean;
    typeCast?: unknown;
  }): MysqlQuery;
  /** Only our own fixed statements, never with values. */
  query(sql: string, callback: (error: Error | null, result: unknown) => void): void;
  destroy(): void;
  once(event: 'error' | 'end', listener: (error?: Error) => void): unknown;
  off(event: 'error' | 'end', listener: (error?: Error) => void): unknown;
}

/** mysql2's numeric column types to the names its typeCast uses (`Types` maps both ways). */
const TYPE_NAMES = Types as unknown as Record<number, string>;

/**
 * The session sql_mode the compiled SQL is written for: none of the modes that change how a
 * statement parses (NO_BACKSLASH_ESCAPES, ANSI_QUOTES, PIPES_AS_CONCAT, IGNORE_SPACE,
 * HIGH_NOT_PRECEDENCE, ANSI, ORACLE...) or what a value reads as (EMPTY_STRING_IS_NULL,
 * PAD_CHAR_TO_FULL_LENGTH). The rest only affects writes, which never run here. Accepted by
 * MySQL 5.7+ and MariaDB 10+.
 */
export const SERVICE_SQL_MODE = 'STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION';

/**
 * mysql2 keeps each connection's prepared statements for reuse, closing the least recently used
 * past this many: the server counts them against a global limit (`max_prepared_stmt_count`, 16382
 * by default) shared by every client, which mysql2's default of 16000 per connection would exhaust.
 */
const PREPARED_PER_CONNECTION = 32;

const TIMEOUT_ERRNOS = new Set([1969, 3024, 1317, 1028]);
// 1927: MariaDB's "Connection was killed"; 1053: server shutdown in progress.
const UNAVAILABLE_ERRNOS = new Set([1045, 1049, 1044, 1040, 1203, 2002, 2003, 2006, 2013, 1927, 1053]);

export class MysqlAdapter extends BaseAdapter {
  private pool: RawPool<MysqlConnection> | null = null;
  private mariadb = true;

  constructor(
    config: DatasourceConfig,
    private readonly secrets: SecretManager,
  ) {
    super('mysql', 'mysql', config);
  }

  protected async open(): Promise<void> {
    const s = resolveServerSettings(this.id, this.config.connection, this.secrets);
    const url = s.url ? parseUrl(s.url) : null;
    const connection = {
      host: url ? url.hostname : s.host,
      port: url ? Number(url.port || 3306) : (s.port ?? 3306),
      user: url ? decodeURIComponent(url.username) : s.user,
      password: url ? decodeURIComponent(url.password) : s.password,
      database: url ? decodeURIComponent(url.pathname.replace(/^\//, '')) : s.database,
      ssl: s.ssl ? {} : undefined,
      timezone: 'Z',
      connectTimeout: 10_000,
      supportBigNumbers: true,
      bigNumberStrings: true,
      maxPreparedStatements: PREPARED_PER_CONNECTION,
    };
    this.pool = await openRawPool<MysqlConnection>(
      {
        client: 'mysql2',
        connection,
        pool: {
          min: 0,
          max: this.config.connection.pool_max ?? DEFAULT_POOL_MAX,
          afterCreate: (
            conn: MysqlConnection,
            done: (error: Error | null, conn: MysqlConnection) => void,
          ) => {
            conn.query(`SET SESSION TRANSACTION READ ONLY`, (error) => {
              if (error) return done(error, conn);
              conn.query(`SET SESSION sql_mode = '${SERVICE_SQL_MODE}', time_zone = '+00:00'`, (e) =>
                done(e, conn),
              );
            });
          },
        },
        acquireConnectionTimeout: 15_000,
      },
      async (conn) => {
        const version = await simpleQuery(conn, 'SELECT VERSION()');
        this.mariadb = /mariadb/i.test(JSON.stringify(version));
      },
    );
  }

  protected async shut(): Promise<void> {
    await this.pool?.destroy();
    this.pool = null;
  }

  protected quote(identifier: string): string {
    return `\`${identifier.replace(/`/g, '``')}\``;
  }

  protected classify(error: unknown): DatasourceErrorCode {
    const errno = Number((error as { errno?: unknown })?.errno);
    const code = driverCode(error);
    if (errno === 1792 || errno === 1290) return 'DATASOURCE_READ_ONLY'; // read-only transaction / --read-only
    if (TIMEOUT_ERRNOS.has(errno)) return 'DATASOURCE_TIMEOUT';
    if (UNAVAILABLE_ERRNOS.has(errno) || /^(ECONN|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH|PROTOCOL_)/.test(code))
      return 'DATASOURCE_UNAVAILABLE';
    if (/Knex: Timeout acquiring/i.test(String((error as Error)?.message))) return 'DATASOURCE_UNAVAILABLE';
    return 'DATASOURCE_QUERY_FAILED';
  }

  protected async openCursor(
    sql: string,
    params: readonly unknown[],
    control: StatementControl,
  ): Promise<Cursor> {
    const pool = this.pool;
    if (!pool) throw new Error('not connected');
    const refusal = mysqlRefusal(sql);
    if (refusal)
      throw new DatasourceError('DATASOURCE_READ_ONLY', this.id, `the datasource is read-only; ${refusal}`);
    const conn = await pool.acquire(control.signal);
    const threadId = conn.threadId;
    try {
      await simpleQuery(conn, 'SET SESSION TRANSACTION READ ONLY');
      // sql_mode again: a session setting is the session's to change, and our SQL relies on it
      await simpleQuery(
        conn,
        `SET SESSION sql_mode = '${SERVICE_SQL_MODE}', ` +
          (this.mariadb
            ? `SESSION max_statement_time = ${(Math.max(1, control.timeoutMs) / 1000).toFixed(3)}`
            : `SESSION max_execution_time = ${Math.max(1, Math.ceil(control.timeoutMs))}`),
      );
      await simpleQuery(conn, 'START TRANSACTION READ ONLY');
    } catch (error) {
      await pool.release(conn, true);
      throw error;
    }
    try {
      // The last moment to stop: a statement stopped while it waited for the connection is never sent.
      control.beforeSend();
    } catch (stopped) {
      await simpleQuery(conn, 'ROLLBACK').then(
        () => pool.release(conn),
        () => pool.release(conn, true),
      );
      throw stopped;
    }
    control.setCanceller(() =>
      pool
        .withSideConnection((side) => simpleQuery(side, `KILL QUERY ${Number(threadId)}`))
        .then(() => undefined),
    );
    return new MysqlCursor(conn, pool, sql, params);
  }

  protected async readCatalog(): Promise<CatalogTable[]> {
    return readMysqlCatalog(
      (sql) => this.execute(sql, [], { timeoutMs: 15_000 }).then((r) => r.rows),
      typeKind,
    );
  }
}

class MysqlCursor implements Cursor {
  private cols: ResultColumn[] = [];
  private binary: boolean[] = [];
  private readonly stream: Readable;
  private readonly rows: AsyncIterator<unknown>;
  private ended = false;
  private failed = false;
  private pending: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly conn: MysqlConnection,
    private readonly pool: RawPool<MysqlConnection>,
    sql: string,
    params: readonly unknown[],
  ) {
    // Prepared and executed by the server, the values bound: never escaped into the text.
    const query = conn.execute({
      sql,
      values: [...params].map(toMysqlParam),
      rowsAsArray: true,
      typeCast: castBinaryCell,
    });
    // a statement without a result set (SET, DO) announces `undefined` fields
    query.on('fields', (fields: FieldDef[] | undefined) => {
      if (!fields) return;
      this.binary = fields.map((f) => f.characterSet === BINARY_CHARSET);
      this.cols = fields.map((f, i) => ({
        name: f.name,
        kind: kindOfField(TYPE_NAMES[f.columnType], this.binary[i] === true),
      }));
    });
    this.stream = query.stream({ highWaterMark: 1000 });
    this.rows = this.stream[Symbol.asyncIterator]();
    // A streamed query without a callback never hears that its connection died (killed, server
    // gone): mysql2 tells the connection instead. Without this the read would wait for good and
    // the pool slot would never come back.
    conn.once('error', this.onConnectionLost);
    conn.once('end', this.onConnectionLost);
  }

  private readonly onConnectionLost = (error?: Error): void => {
    if (this.ended) return;
    const lost =
      error ??
      Object.assign(new Error('the connection to the database was closed'), {
        code: 'PROTOCOL_CONNECTION_LOST',
      });
    this.stream.destroy(lost);
  };

  private forgetConnection(): void {
    this.conn.off('error', this.onConnectionLost);
    this.conn.off('end', this.onConnectionLost);
  }

  get columns(): readonly ResultColumn[] {
    return this.cols;
  }

  async next(max: number): Promise<Cell[][]> {
    const out: Cell[][] = [];
    while (!this.ended && out.length < max) {
      const step = this.rows.next();
      this.pending = step.catch(() => undefined);
      let item: IteratorResult<unknown>;
      try {
        item = await step;
      } catch (error) {
        this.failed = true;
        throw error;
      }
      if (item.done) {
        this.ended = true;
        break;
      }
      // a statement without a result set (SET, DO) yields a header object, not a row
      if (Array.isArray(item.value)) out.push(finishRow(item.value as (Cell | Buffer)[], this.binary));
    }
    return out;
  }

  async close(): Promise<void> {
    await this.pending;
    this.forgetConnection();
    if (!this.ended && !this.failed) {
      // A half-read result cannot be abandoned on a MySQL connection: drop the connection.
      this.stream.destroy();
      this.conn.destroy();
      await this.pool.release(this.conn, true);
      return;
    }
    await simpleQuery(this.conn, 'ROLLBACK').then(
      () => this.pool.release(this.conn),
      () => this.pool.release(this.conn, true),
    );
  }
}

function simpleQuery(conn: MysqlConnection, sql: string): Promise<unknown> {
  return new Promise((resolve, reject) =>
    conn.query(sql, (error, result) => (error ? reject(error) : resolve(result))),
  );
}
