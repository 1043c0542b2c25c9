/**
 * The dialect-independent half of executing a statement. It opens the adapter's cursor, reads it in
 * batches, stops at `maxRows` (reading one row more to know whether the result was cut), and holds
 * the timeout: a budget of time spent waiting on the database. Time the consumer spends between
 * batches is not counted, so a slow consumer of a large stream is not cut off, while a statement
 * that keeps the database busy is. When the budget runs out or the signal aborts, the adapter's
 * canceller stops the statement and the caller gets a typed error at once. The budget also runs
 * while the statement waits for a connection: a statement stopped before it was sent is never sent
 * (StatementControl.beforeSend), and a signal aborted before the start opens nothing.
 */
import type { Cell, ExecuteOptions, ResultBatch, ResultColumn } from './adapter';
import type { Cursor, CursorOpener, StatementControl } from './cursor';
import { DatasourceError, causeMessage, isDatasourceError, type DatasourceErrorCode } from './errors';

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_BATCH_SIZE = 1000;
/** The client-side stop fires this long after the timeout, so that a server-side timeout (postgres,
 * mysql), which reports itself cleanly, usually comes first. */
const CLIENT_GRACE_MS = 250;

export interface StatementContext {
  readonly datasourceId: string;
  readonly defaultTimeoutMs: number;
  /** The dialect's reading of a driver error (read-only refusal, server-side timeout...). */
  classify(error: unknown): DatasourceErrorCode;
  /** Called each time a statement is handed to the driver (the adapter's count of statements sent). */
  readonly onSend?: () => void;
}

class Stopped extends Error {}

/** The time budget and cancellation of one statement. */
class Budget implements StatementControl {
  private remaining: number;
  private canceller: (() => Promise<void> | void) | null = null;
  /** Aborted by `fire`: ends whatever the adapter still waits for before sending. */
  private readonly stopper = new AbortController();
  /** A cancel in flight; the connection must not be reused before it lands (postgres would
   * otherwise cancel the next statement on it). */
  cancelling: Promise<void> = Promise.resolve();
  timedOut = false;
  aborted = false;

  constructor(
    readonly timeoutMs: number,
    private readonly callerSignal: AbortSignal | undefined,
    private readonly onSend: (() => void) | undefined,
  ) {
    this.remaining = timeoutMs + CLIENT_GRACE_MS;
  }

  get signal(): AbortSignal {
    return this.stopper.signal;
  }

  beforeSend(): void {
    if (this.stopper.signal.aborted || this.callerSignal?.aborted) throw new Stopped();
    this.onSend?.();
  }

  setCanceller(cancel: (() => Promise<void> | void) | null): void {
    this.canceller = cancel;
  }

  async wait<T>(work: Promise<T>): Promise<T> {
    if (this.callerSignal?.aborted) {
      this.aborted = true;
      // what the adapter still waits for ends; a statement already running is closed by the caller
      this.stopper.abort();
      work.catch(() => undefined);
      throw new Stopped();
    }
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stop = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => {
          this.timedOut = true;
          this.fire();
          reject(new Stopped());
        },
        Math.max(0, this.remaining),
      );
      onAbort = () => {
        this.aborted = true;
        this.fire();
        reject(new Stopped());
      };
      this.callerSignal?.addEventListener('abort', onAbort, { once: true });
    });
    // The losing side of the race must not become an unhandled rejection.
    work.catch(() => undefined);
    try {
      return await Promise.race([work, stop]);
    } finally {
      clearTimeout(timer);
      if (onAbort) this.callerSignal?.removeEventListener('abort', onAbort);
      this.remaining -= Date.now() - started;
    }
  }

  private fire(): void {
    this.stopper.abort();
    const cancel = this.canceller;
    if (!cancel) return;
    try {
      this.cancelling = Promise.resolve(cancel()).catch(() => undefined);
    } catch {
      // a canceller that throws cannot do more than the close that follows
    }
  }
}

function toTypedError(error: unknown, budget: Budget, ctx: StatementContext): DatasourceError {
  if (isDatasourceError(error)) return error;
  if (budget.aborted)
    return new DatasourceError(
      'DATASOURCE_ABORTED',
      ctx.datasourceId,
      'the statement was cancelled by the caller',
    );
  const code = budget.timedOut ? 'DATASOURCE_TIMEOUT' : ctx.classify(error);
  if (code === 'DATASOURCE_TIMEOUT') {
    return new DatasourceError(
      code,
      ctx.datasourceId,
      `the statement ran longer than its timeout of ${budget.timeoutMs} ms and was cancelled`,
      {
        timeout_ms: budget.timeoutMs,
      },
    );
  }
  if (code === 'DATASOURCE_READ_ONLY') {
    return new DatasourceError(
      code,
      ctx.datasourceId,
      `the datasource is read-only; the statement was refused: ${causeMessage(error)}`,
    );
  }
  return new DatasourceError(code, ctx.datasourceId, causeMessage(error));
}

export async function* streamStatement(
  open: CursorOpener,
  sql: string,
  params: readonly unknown[],
  options: ExecuteOptions,
  ctx: StatementContext,
): AsyncGenerator<ResultBatch> {
  const budget = new Budget(positiveOr(options.timeoutMs, ctx.defaultTimeoutMs), options.signal, ctx.onSend);
  if (options.signal?.aborted) {
    // The caller left before the statement started: nothing is opened, nothing waits for a connection.
    budget.aborted = true;
    throw toTypedError(new Stopped(), budget, ctx);
  }
  const batchSize = Math.max(1, Math.floor(positiveOr(options.batchSize, DEFAULT_BATCH_SIZE)));
  const maxRows = options.maxRows === undefined ? Infinity : Math.max(0, Math.floor(options.maxRows));
  let cursor: Cursor | undefined;
  const opening = open(sql, params, budget);
  try {
    cursor = await budget.wait(opening);
    let delivered = 0;
    let yielded = false;
    for (;;) {
      const remaining = maxRows - delivered;
      // On the last batch before maxRows ask for one row more: it tells whether rows were cut.
      const want = remaining <= batchSize ? remaining + 1 : batchSize;
      const rows: Cell[][] = await budget.wait(cursor.next(want));
      if (rows.length === 0) break;
      if (rows.length > remaining) {
        yield batch(cursor.columns, rows.slice(0, remaining), true);
        return;
      }
      delivered += rows.length;
      yielded = true;
      yield batch(cursor.columns, rows, false);
    }
    if (!yielded) yield batch(cursor.columns, [], false);
  } catch (error) {
    throw toTypedError(error, budget, ctx);
  } finally {
    budget.setCanceller(null);
    await budget.cancelling;
    if (cursor) await cursor.close().catch(() => undefined);
    // Stopped while opening: the cursor may still arrive; it must be closed when it does.
    else opening.then((late) => late.close()).catch(() => undefined);
  }
}

export async function collectStatement(batches: AsyncIterable<ResultBatch>): Promise<ResultBatch> {
  let columns: readonly ResultColumn[] = [];
  const rows: Cell[][] = [];
  let truncated = false;
  for await (const b of batches) {
    columns = b.columns;
    for (const r of b.rows) rows.push(r);
    truncated ||= b.truncated === true;
  }
  return { columns, rows, truncated };
}

function batch(columns: readonly ResultColumn[], rows: Cell[][], truncated: boolean): ResultBatch {
  return { columns, rows, truncated };
}

function positiveOr(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}
