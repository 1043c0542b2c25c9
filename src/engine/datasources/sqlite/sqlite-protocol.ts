/** Messages between the SQLite adapter and its runner process (advanced IPC serialisation). */
import type { Cell, ResultColumn } from '../adapter';

export type RunnerRequest =
  | {
      readonly id: number;
      readonly op: 'open';
      /** The database file: a runner serves every SQLite datasource of the process. */
      readonly path: string;
      readonly sql: string;
      readonly params: readonly unknown[];
      /** Rows to read at once and send with the reply (a small result needs no `next`). */
      readonly prefetch?: number;
    }
  | { readonly id: number; readonly op: 'next'; readonly max: number }
  | { readonly id: number; readonly op: 'close' }
  /** Opens the file unless the runner has it open already; SQLite's reason if it cannot. */
  | { readonly id: number; readonly op: 'attach'; readonly path: string }
  /** Closes the runner's connection to the file, if it has one (the datasource was removed). */
  | { readonly id: number; readonly op: 'detach'; readonly path: string };

export type RunnerReply =
  | {
      readonly id: number;
      readonly ok: true;
      readonly columns?: readonly ResultColumn[];
      readonly rows?: Cell[][];
      /** On `next` (or a prefetching `open`): no row is left (the cursor need not ask, nor close it). */
      readonly done?: boolean;
    }
  | {
      readonly id: number;
      readonly ok: false;
      readonly error: { readonly message: string; readonly code?: string };
    };

/** First message of a runner: better-sqlite3 loaded, or why not. */
export type RunnerHello =
  { readonly ready: true } | { readonly ready: false; readonly error: { message: string; code?: string } };
