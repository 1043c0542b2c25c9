/**
 * The SQLite runner: a child process that owns one read-only better-sqlite3 connection. better-
 * sqlite3 is synchronous and has no interrupt, so a long statement would block the event loop it
 * runs on and could not be stopped; in a child process it blocks nobody and a timeout kills the
 * process (a worker thread cannot be stopped while SQLite is inside native code).
 * Guards: the file is opened readonly (SQLite refuses every write, ATTACHed files included), the
 * `query_only` pragma is set before every statement, and a statement SQLite itself reports as not
 * read-only (`VACUUM INTO` a new file would be one) or as returning no rows (`PRAGMA x = y`) is
 * refused before it runs. Dates are TEXT in SQLite: they are returned as stored.
 */
import Database from 'better-sqlite3';
import type { Cell, ResultColumn } from '../adapter';
import { blobCell, genericCell, integerCell, numberCell } from '../cells';
import type { TypeKind } from '../schema';
import { typeKind } from '../type-kind';
import type { RunnerHello, RunnerReply, RunnerRequest } from './sqlite-protocol';

const send = (message: RunnerReply | RunnerHello) => process.send?.(message);

let db: Database.Database;
try {
  db = new Database(process.argv[2] ?? '', { readonly: true, fileMustExist: true });
  db.pragma('query_only = ON');
  db.defaultSafeIntegers(true);
  send({ ready: true });
} catch (error) {
  send({ ready: false, error: describe(error) });
  process.exit(1);
}

let rows: IterableIterator<unknown[]> | null = null;
let columns: ResultColumn[] = [];

process.on('message', (request: RunnerRequest) => {
  try {
    send(handle(request));
  } catch (error) {
    closeCurrent();
    send({ id: request.id, ok: false, error: describe(error) });
  }
});
process.on('disconnect', () => process.exit(0));

function handle(request: RunnerRequest): RunnerReply {
  switch (request.op) {
    case 'open': {
      closeCurrent();
      // set again each time: nothing a previous statement did may carry over
      db.pragma('query_only = ON');
      const stmt = db.prepare(request.sql);
      // SQLite's own verdict: a statement that may write (or, returning no rows, changes a setting
      // such as `PRAGMA query_only = OFF`) is refused before it runs.
      if (!stmt.readonly || !stmt.reader) {
        const what = stmt.readonly
          ? 'only statements that return rows run here'
          : 'the statement would write';
        return {
          id: request.id,
          ok: false,
          error: {
            message: `attempt to write a readonly database (refused: ${what})`,
            code: 'SQLITE_READONLY',
          },
        };
      }
      const params = request.params.map(toSqliteParam);
      stmt.raw(true);
      columns = stmt
        .columns()
        .map((c) => ({ name: c.name, kind: c.type ? typeKind(c.type, 'sqlite') : 'other' }));
      rows = stmt.iterate(...params) as IterableIterator<unknown[]>;
      return { id: request.id, ok: true, columns };
    }
    case 'next': {
      const out: Cell[][] = [];
      while (rows && out.length < request.max) {
        const step = rows.next();
        if (step.done) {
          rows = null;
          break;
        }
        out.push(step.value.map(toCell));
      }
      inferKinds(out);
      return { id: request.id, ok: true, rows: out, columns, done: rows === null };
    }
    case 'close':
      closeCurrent();
      return { id: request.id, ok: true };
  }
}

function closeCurrent(): void {
  rows?.return?.();
  rows = null;
}

/** An expression column has no declared type: its kind comes from the first value seen. */
function inferKinds(batch: Cell[][]): void {
  columns = columns.map((c, i) => {
    if (c.kind !== 'other') return c;
    const v = batch.find((r) => r[i] !== null)?.[i];
    const kind: TypeKind | null =
      typeof v === 'number'
        ? Number.isInteger(v)
          ? 'integer'
          : 'float'
        : typeof v === 'string'
          ? 'text'
          : null;
    return kind ? { ...c, kind } : c;
  });
}

function toCell(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return integerCell(value);
  if (typeof value === 'number') return numberCell(value);
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return blobCell(value);
  return genericCell(value);
}

function toSqliteParam(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value;
}

function describe(error: unknown): { message: string; code?: string } {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { message: error.message, code: typeof code === 'string' ? code : undefined };
  }
  return { message: String(error) };
}
