/**
 * What the four adapters share: the life cycle (built -> connected -> closed, with a lazy connect on
 * first use), `execute`/`stream` on top of the dialect's cursor, and introspection, where the
 * dialect reads its catalog and this class adds sample values, missing row counts and the
 * schema version.
 */
import type { DatasourceConfig } from '../../config/schema';
import type {
  Cell,
  DatasourceAdapter,
  DatasourceType,
  DistinctValuesOptions,
  ExecuteOptions,
  IntrospectOptions,
  ResultBatch,
} from './adapter';
import type { Cursor, StatementControl } from './cursor';
import { DatasourceError, causeMessage, isDatasourceError, type DatasourceErrorCode } from './errors';
import {
  collectStatement,
  DEFAULT_TIMEOUT_MS,
  streamStatement,
  type StatementContext,
} from './run-statement';
import type { ColumnInfo, Dialect, SchemaSnapshot, TableInfo } from './schema';
import { schemaVersionOf } from './schema-version';

/** A table as the dialect's catalog reads it; samples are added here. */
export interface CatalogTable extends Omit<TableInfo, 'columns'> {
  readonly columns: readonly Omit<ColumnInfo, 'sampleValues'>[];
}

const SAMPLE_SCAN_ROWS = 1000;
const SAMPLE_TEXT_MAX = 80;
const DEFAULT_SAMPLES = 5;
/** Introspection's own statements get a shorter budget than user statements. */
const INTROSPECTION_TIMEOUT_MS = 10_000;
/** A value scan groups a whole (or sampled) column: more than a catalog read, still bounded. */
const VALUE_SCAN_TIMEOUT_MS = 30_000;

type State = 'built' | 'open' | 'closed';

export abstract class BaseAdapter implements DatasourceAdapter {
  readonly id: string;
  private state: State = 'built';
  private connecting: Promise<void> | null = null;
  protected readonly defaultTimeoutMs: number;

  constructor(
    readonly type: DatasourceType,
    readonly dialect: Dialect,
    protected readonly config: DatasourceConfig,
  ) {
    this.id = config.id;
    const timeoutS = config.limits?.timeout_s;
    this.defaultTimeoutMs = timeoutS && timeoutS > 0 ? timeoutS * 1000 : DEFAULT_TIMEOUT_MS;
  }

  /** Opens the pool and proves it with a round trip. */
  protected abstract open(): Promise<void>;
  protected abstract shut(): Promise<void>;
  protected abstract openCursor(
    sql: string,
    params: readonly unknown[],
    control: StatementControl,
  ): Promise<Cursor>;
  protected abstract classify(error: unknown): DatasourceErrorCode;
  protected abstract readCatalog(): Promise<CatalogTable[]>;
  protected abstract quote(identifier: string): string;

  async connect(): Promise<void> {
    if (this.state === 'closed') throw this.closedError();
    if (this.state === 'open') return;
    this.connecting ??= this.open().then(
      () => {
        // close() may have run while the pool was opening
        if (this.state === 'closed') return this.shut().then(() => Promise.reject(this.closedError()));
        this.state = 'open';
      },
      (error: unknown) => {
        this.connecting = null;
        throw isDatasourceError(error)
          ? error
          : new DatasourceError('DATASOURCE_UNAVAILABLE', this.id, `cannot connect: ${causeMessage(error)}`);
      },
    );
    await this.connecting;
  }

  async healthCheck(): Promise<void> {
    await this.connect();
    await this.execute('SELECT 1', [], { timeoutMs: Math.min(5000, this.defaultTimeoutMs) });
  }

  stream(
    sql: string,
    params: readonly unknown[] = [],
    options: ExecuteOptions = {},
  ): AsyncIterable<ResultBatch> {
    const ctx: StatementContext = {
      datasourceId: this.id,
      defaultTimeoutMs: this.defaultTimeoutMs,
      classify: (e) => this.classify(e),
      onSend: () => this.sent++,
    };
    const opener = async (s: string, p: readonly unknown[], control: StatementControl) => {
      await this.connect();
      return this.openCursor(stripTrailingSemicolons(s), p, control);
    };
    return this.counted(streamStatement(opener, sql, params, options, ctx));
  }

  /** Statements open now (each holds a connection or a slot of the pool while it streams). */
  get activeStatements(): number {
    return this.active;
  }

  private active = 0;

  /** Statements handed to the database since the adapter was built (each once, when sent). */
  get statementsSent(): number {
    return this.sent;
  }

  private sent = 0;

  private async *counted(batches: AsyncIterable<ResultBatch>): AsyncGenerator<ResultBatch> {
    this.active++;
    try {
      yield* batches;
    } finally {
      this.active--;
    }
  }

  async execute(
    sql: string,
    params: readonly unknown[] = [],
    options: ExecuteOptions = {},
  ): Promise<ResultBatch> {
    return collectStatement(this.stream(sql, params, options));
  }

  async introspect(options: IntrospectOptions = {}): Promise<SchemaSnapshot> {
    await this.connect();
    const perColumn = options.sampleValues ?? DEFAULT_SAMPLES;
    const catalog = await this.readCatalog();
    const tables: TableInfo[] = [];
    for (const t of catalog) {
      const columns: ColumnInfo[] = [];
      for (const c of t.columns) {
        const sampleValues =
          perColumn > 0 && c.kind !== 'blob' ? await this.sampleValues(t, c.name, perColumn) : [];
        columns.push({ ...c, sampleValues });
      }
      const rowCountEstimate = t.rowCountEstimate ?? (await this.countRows(t));
      tables.push({ ...t, columns, rowCountEstimate });
    }
    tables.sort((a, b) => qualifiedName(a).localeCompare(qualifiedName(b)));
    return {
      datasourceId: this.id,
      dialect: this.dialect,
      tables,
      schemaVersion: schemaVersionOf(tables),
      introspectedAt: new Date().toISOString(),
    };
  }

  async distinctValues(
    table: Pick<TableInfo, 'name' | 'schema'>,
    column: string,
    options: DistinctValuesOptions,
  ): Promise<{ value: string; count: number }[]> {
    await this.connect();
    const col = this.quote(column);
    const from =
      options.sampleRows !== null
        ? this.sampledTable(table, column, options.sampleRows, options.tableRows ?? null)
        : this.tableRef(table);
    const sql =
      `SELECT ${col} AS v, COUNT(*) AS n FROM ${from} WHERE ${col} IS NOT NULL ` +
      `GROUP BY ${col} ORDER BY n DESC, v LIMIT ${Math.max(1, Math.floor(options.limit))}`;
    try {
      const result = await this.execute(sql, [], {
        timeoutMs: Math.min(VALUE_SCAN_TIMEOUT_MS, this.defaultTimeoutMs),
        maxRows: options.limit,
      });
      return result.rows
        .filter((r) => typeof r[0] === 'string')
        .map((r) => ({ value: r[0] as string, count: Number(r[1] ?? 0) }));
    } catch (err) {
      // A type without equality (json in postgres, arrays) simply has no values to index.
      if (isDatasourceError(err) && err.code === 'DATASOURCE_UNAVAILABLE') throw err;
      return [];
    }
  }

  /**
   * A sample of about `rows` rows of a large table, as a FROM item exposing `column`. Here the
   * first rows (every dialect can); dialects with a sampling clause draw from the whole table.
   */
  protected sampledTable(
    t: Pick<TableInfo, 'name' | 'schema'>,
    column: string,
    rows: number,
    _tableRows: number | null,
  ): string {
    const col = this.quote(column);
    return `(SELECT ${col} FROM ${this.tableRef(t)} WHERE ${col} IS NOT NULL LIMIT ${Math.floor(rows)}) sampled`;
  }

  async close(): Promise<void> {
    if (this.state === 'closed') return;
    const wasOpening = this.connecting;
    this.state = 'closed';
    if (wasOpening) {
      // the pool is open, or opening and closed by connect() itself when it settles
      await wasOpening.then(
        () => this.shut(),
        () => undefined,
      );
    }
  }

  protected tableRef(t: Pick<TableInfo, 'name' | 'schema'>): string {
    return t.schema ? `${this.quote(t.schema)}.${this.quote(t.name)}` : this.quote(t.name);
  }

  /** A few distinct values, read from the first rows only so a large table costs no full scan. */
  private async sampleValues(
    t: CatalogTable,
    column: string,
    n: number,
  ): Promise<(string | number | boolean)[]> {
    const col = this.quote(column);
    const sql =
      `SELECT DISTINCT ${col} FROM (SELECT ${col} FROM ${this.tableRef(t)} WHERE ${col} IS NOT NULL ` +
      `LIMIT ${SAMPLE_SCAN_ROWS}) sampled ORDER BY 1 LIMIT ${Math.floor(n)}`;
    try {
      const result = await this.execute(sql, [], {
        timeoutMs: Math.min(INTROSPECTION_TIMEOUT_MS, this.defaultTimeoutMs),
      });
      return result.rows.map((r) => sampleOf(r[0])).filter((v): v is string | number | boolean => v !== null);
    } catch {
      // A type without ordering or equality (json in postgres, arrays) simply has no samples.
      return [];
    }
  }

  private async countRows(t: CatalogTable): Promise<number | null> {
    try {
      const result = await this.execute(`SELECT COUNT(*) FROM ${this.tableRef(t)}`, [], {
        timeoutMs: Math.min(INTROSPECTION_TIMEOUT_MS, this.defaultTimeoutMs),
      });
      const v = result.rows[0]?.[0];
      return typeof v === 'number' ? v : v === undefined || v === null ? null : Number(v);
    } catch {
      return null;
    }
  }

  private closedError(): DatasourceError {
    return new DatasourceError('DATASOURCE_UNAVAILABLE', this.id, 'the datasource was closed');
  }
}

function sampleOf(v: Cell | undefined): string | number | boolean | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string' && v.length > SAMPLE_TEXT_MAX) return `${v.slice(0, SAMPLE_TEXT_MAX)}…`;
  return v;
}

function qualifiedName(t: TableInfo): string {
  return t.schema ? `${t.schema}.${t.name}` : t.name;
}

function stripTrailingSemicolons(sql: string): string {
  return sql.replace(/[\s;]+$/, '');
}
