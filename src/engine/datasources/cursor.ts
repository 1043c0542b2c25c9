/**
 * What every adapter implements underneath `execute` and `stream`: a cursor over one read-only
 * statement. The shared runner (`run-statement.ts`) adds, once for all dialects, batching,
 * `maxRows`, the timeout, the AbortSignal and the mapping of failures to typed errors.
 */
import type { Cell, ResultColumn } from './adapter';

export interface Cursor {
  readonly columns: readonly ResultColumn[];
  /** Up to `max` next rows; an empty array at the end. */
  next(max: number): Promise<Cell[][]>;
  /** Releases what the statement holds (transaction, connection, child); called exactly once. */
  close(): Promise<void>;
}

/**
 * Given to `openCursor`. A statement may wait before it reaches the database (for a connection of
 * the pool, a slot of the datasource's semaphore, a runner): `signal` ends such a wait, and
 * `beforeSend` is called right before the statement is handed to the driver, so a statement
 * stopped while it waited (its caller gone, its time spent) is never sent. Once sent, the adapter
 * registers how to stop it (cancel the backend, KILL QUERY, interrupt, kill the runner); the
 * runner calls that when the timeout passes or the caller aborts.
 */
export interface StatementControl {
  /** Milliseconds the statement may spend in the database; adapters also set it server-side. */
  readonly timeoutMs: number;
  /** Aborted once the statement is stopped: the caller aborted or its time ran out. Waits take it. */
  readonly signal: AbortSignal;
  /** Throws when the statement was stopped; else counts it as sent. Call it last before sending. */
  beforeSend(): void;
  setCanceller(cancel: (() => Promise<void> | void) | null): void;
}

export type CursorOpener = (
  sql: string,
  params: readonly unknown[],
  control: StatementControl,
) => Promise<Cursor>;
