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
 * Given to `openCursor`: the adapter registers how to stop the statement that is running right
 * now (cancel the backend, KILL QUERY, interrupt, kill the runner). The runner calls it when the
 * timeout passes or the signal aborts.
 */
export interface StatementControl {
  /** Milliseconds the statement may spend in the database; adapters also set it server-side. */
  readonly timeoutMs: number;
  setCanceller(cancel: (() => Promise<void> | void) | null): void;
}

export type CursorOpener = (
  sql: string,
  params: readonly unknown[],
  control: StatementControl,
) => Promise<Cursor>;
