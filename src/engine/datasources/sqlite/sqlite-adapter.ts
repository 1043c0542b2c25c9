/**
 * SQLite through better-sqlite3, run in child processes (`sqlite-runner-main.ts`): the event loop
 * never waits on SQLite, and a statement past its timeout is stopped by killing its runner (better-
 * sqlite3 has no interrupt). The runners are shared by every SQLite datasource of the process
 * (`sqlite-runner-pool.ts`); each holds one statement at a time, and `pool_max` (default 4) caps
 * how many statements of this datasource run at once. Integers are read as BigInt (`safeIntegers`)
 * and turned into numbers or, past 2^53, strings; blobs are base64.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_POOL_MAX, type DatasourceConfig } from '../../../config/schema';
import type { Cell, ResultColumn } from '../adapter';
import { BaseAdapter, type CatalogTable } from '../base-adapter';
import type { Cursor, StatementControl } from '../cursor';
import { DatasourceError, type DatasourceErrorCode } from '../errors';
import type { ForeignKey } from '../schema';
import { Semaphore } from '../semaphore';
import { typeKind } from '../type-kind';
import { RunnerError, type SqliteRunner } from './sqlite-runner';
import { sqliteRunners } from './sqlite-runner-pool';

// The documented default of every adapter (config schema): four statements of one SQLite file at
// once, each in a runner process of the shared pool.
/**
 * Rows the runner reads with `open` and sends in the same reply: a result of up to this many rows
 * costs one round trip to the runner process instead of two (the first batch is read anyway).
 */
const PREFETCH_ROWS = 1000;

export class SqliteAdapter extends BaseAdapter {
  private readonly path: string;
  private readonly slots: Semaphore;
  /** Runners holding a statement of this datasource now: closing the datasource stops them. */
  private readonly busy = new Set<SqliteRunner>();
  private retained = false;

  constructor(config: DatasourceConfig) {
    super('sqlite', 'sqlite', config);
    this.path = resolve(config.connection.path ?? '');
    this.slots = new Semaphore(config.connection.pool_max ?? DEFAULT_POOL_MAX);
  }

  protected async open(): Promise<void> {
    if (!existsSync(this.path)) {
      throw new DatasourceError(
        'DATASOURCE_UNAVAILABLE',
        this.id,
        `the SQLite file ${this.path} does not exist`,
      );
    }
    sqliteRunners.retain();
    this.retained = true;
    // One round trip proves the file opens as a database (SQLite's reason when it does not).
    const runner = await sqliteRunners.acquire();
    try {
      await runner.request({ op: 'attach', path: this.path });
    } catch (error) {
      this.shutOnce();
      throw error;
    } finally {
      sqliteRunners.giveBack(runner);
    }
  }

  protected async shut(): Promise<void> {
    for (const r of this.busy) r.kill();
    this.busy.clear();
    this.shutOnce();
  }

  /** connect() and close() may both shut an adapter closed while it opened: release once. */
  private shutOnce(): void {
    if (!this.retained) return;
    this.retained = false;
    sqliteRunners.forget(this.path);
    sqliteRunners.releaseUser();
  }

  protected quote(identifier: string): string {
    return `"${identifier.replace(/"/g, '""')}"`;
  }

  protected classify(error: unknown): DatasourceErrorCode {
    const code = error instanceof RunnerError ? (error.code ?? '') : '';
    const message = error instanceof Error ? error.message : String(error);
    if (code.startsWith('SQLITE_READONLY') || /readonly database|read-only/i.test(message))
      return 'DATASOURCE_READ_ONLY';
    if (
      code.startsWith('SQLITE_CANTOPEN') ||
      code.startsWith('SQLITE_NOTADB') ||
      /runner process/.test(message)
    ) {
      return 'DATASOURCE_UNAVAILABLE';
    }
    if (code.startsWith('SQLITE_INTERRUPT')) return 'DATASOURCE_TIMEOUT';
    return 'DATASOURCE_QUERY_FAILED';
  }

  protected async openCursor(
    sql: string,
    params: readonly unknown[],
    control: StatementControl,
  ): Promise<Cursor> {
    const release = await this.slots.acquire(control.signal);
    let runner: SqliteRunner | undefined;
    try {
      runner = await sqliteRunners.acquire();
      this.busy.add(runner);
      const r = runner;
      // The last moment to stop: a statement stopped while it waited for a slot is never sent.
      control.beforeSend();
      control.setCanceller(() => r.kill());
      const reply = await runner.request({
        op: 'open',
        path: this.path,
        sql,
        params: [...params],
        prefetch: PREFETCH_ROWS,
      });
      return new SqliteCursor(r, reply, () => this.giveBack(r, release));
    } catch (error) {
      if (runner) this.giveBack(runner, release);
      else release();
      throw error;
    }
  }

  private giveBack(runner: SqliteRunner, release: () => void): void {
    this.busy.delete(runner);
    sqliteRunners.giveBack(runner);
    release();
  }

  /**
   * SQLite has no comments on tables or columns (the `-- ...` in a CREATE statement's text is not a
   * catalog fact), so its snapshot carries none.
   */
  protected async readCatalog(): Promise<CatalogTable[]> {
    const rows = async (sql: string, params: unknown[] = []) =>
      (await this.execute(sql, params, { timeoutMs: 10_000 })).rows;
    const tables = await rows(
      `SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name`,
    );
    const out: CatalogTable[] = [];
    for (const [tableName] of tables) {
      const name = String(tableName);
      // pragma_table_info: cid, name, type, notnull, dflt_value, pk (1-based position in the key)
      const cols = await rows('SELECT name, type, "notnull", pk FROM pragma_table_info(?) ORDER BY cid', [
        name,
      ]);
      const primaryKey = cols
        .filter((c) => Number(c[3]) > 0)
        .sort((a, b) => Number(a[3]) - Number(b[3]))
        .map((c) => String(c[0]));
      // pragma_foreign_key_list: id, seq, table, from, to (to is null when it means the parent's key)
      const fkRows = await rows(
        'SELECT id, seq, "table", "from", "to" FROM pragma_foreign_key_list(?) ORDER BY id, seq',
        [name],
      );
      const foreignKeys: ForeignKey[] = [];
      for (const id of [...new Set(fkRows.map((f) => Number(f[0])))]) {
        const parts = fkRows.filter((f) => Number(f[0]) === id);
        const refTable = String(parts[0]?.[2]);
        let refColumns = parts.map((f) => (f[4] === null ? null : String(f[4])));
        if (refColumns.some((c) => c === null)) refColumns = await this.primaryKeyOf(refTable);
        foreignKeys.push({
          columns: parts.map((f) => String(f[3])),
          refTable,
          refColumns: refColumns as string[],
        });
      }
      out.push({
        name,
        schema: null,
        columns: cols.map((c) => ({
          name: String(c[0]),
          type: String(c[1] ?? ''),
          kind: typeKind(String(c[1] ?? ''), 'sqlite'),
          // SQLite lets a non-INTEGER key column hold NULL, but a key is meant to be set.
          nullable: Number(c[2]) === 0 && Number(c[3]) === 0,
        })),
        primaryKey,
        foreignKeys,
        rowCountEstimate: null, // SQLite keeps no row count: the base class counts
      });
    }
    return out;
  }

  private async primaryKeyOf(table: string): Promise<string[]> {
    const cols = (
      await this.execute('SELECT name, pk FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk', [table])
    ).rows;
    return cols.map((c) => String(c[0]));
  }
}

class SqliteCursor implements Cursor {
  private pending: Promise<unknown> = Promise.resolve();
  private cols: readonly ResultColumn[];
  /** Rows the runner sent with its answer to `open`, not yet handed out. */
  private buffered: Cell[][];
  /**
   * The runner said the statement has no row left: the next `next` is answered here and `close`
   * sends nothing (two IPC round trips fewer per statement).
   */
  private done: boolean;

  constructor(
    private readonly runner: SqliteRunner,
    opened: { columns?: readonly ResultColumn[]; rows?: Cell[][]; done?: boolean },
    private readonly release: () => void,
  ) {
    this.cols = opened.columns ?? [];
    this.buffered = opened.rows ?? [];
    this.done = opened.done === true;
  }

  get columns(): readonly ResultColumn[] {
    return this.cols;
  }

  async next(max: number): Promise<Cell[][]> {
    const held = this.buffered;
    if (held.length >= max) {
      this.buffered = held.slice(max);
      return held.length === max ? held : held.slice(0, max);
    }
    this.buffered = [];
    // The rows held, topped up to `max` from the runner: batches keep the size the caller asked.
    if (this.done) return held;
    const fetching = this.runner.request({ op: 'next', max: max - held.length });
    this.pending = fetching.catch(() => undefined);
    const reply = await fetching;
    if (reply.columns) this.cols = reply.columns;
    if (reply.done) this.done = true;
    const rows = reply.rows ?? [];
    return held.length ? held.concat(rows) : rows;
  }

  async close(): Promise<void> {
    await this.pending;
    if (this.runner.isAlive && !this.done) await this.runner.request({ op: 'close' }).catch(() => undefined);
    this.release();
  }
}
