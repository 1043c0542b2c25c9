/**
 * The SQLite runner: a child process that runs one statement at a time on read-only better-sqlite3
 * connections. better-sqlite3 is synchronous and has no interrupt, so a long statement would
 * block the event loop it runs on and could not be stopped; in a child process it blocks nobody
 * and a timeout kills the process (a worker thread cannot be stopped while SQLite is inside native
 * code). A runner serves every SQLite datasource of the engine's process (see
 * sqlite-runner-pool.ts): it keeps a connection to each file it was asked about, up to
 * MAX_OPEN_FILES, the least recently used closed first.
 * Guards: each file is opened readonly (SQLite refuses every write, ATTACHed files included), the
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

const MAX_OPEN_FILES = 64;

const send = (message: RunnerReply | RunnerHello) => process.send?.(message);

/** Open connections by file, least recently used first (a Map keeps insertion order). */
const connections = new Map<string, Database.Database>();

function connection(path: string): Database.Database {
  const held = connections.get(path);
  if (held) {
    connections.delete(path);
    connections.set(path, held);
    return held;
  }
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    db.pragma('query_only = ON');
    db.defaultSafeIntegers(true);
    // Reading the schema reads the file's header: a file that is no database fails here, once.
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
  } catch (error) {
    db.close();
    throw error;
  }
  connections.set(path, db);
  if (connections.size > MAX_OPEN_FILES) detach(connections.keys().next().value as string);
  return db;
}

function detach(path: string): void {
  const db = connections.get(path);
  connections.delete(path);
  db?.close();
}

let rows: IterableIterator<unknown[]> | null = null;
let columns: ResultColumn[] = [];
/** Kinds are settled on a statement's first batch: the result's columns cannot change afterwards. */
let kindsSettled = false;

process.on('message', (request: RunnerRequest) => {
  try {
    send(handle(request));
  } catch (error) {
    closeCurrent();
    send({ id: request.id, ok: false, error: describe(error) });
  }
});
process.on('disconnect', () => process.exit(0));
send({ ready: true });

function handle(request: RunnerRequest): RunnerReply {
  switch (request.op) {
    case 'open': {
      closeCurrent();
      const db = connection(request.path);
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
      // INTEGER values come back as BigInt and REAL ones as numbers, so 12.0 is told from 12.
      stmt.safeIntegers(true);
      kindsSettled = false;
      columns = stmt
        .columns()
        .map((c) => ({ name: c.name, kind: c.type ? typeKind(c.type, 'sqlite') : 'other' }));
      rows = stmt.iterate(...params) as IterableIterator<unknown[]>;
      if (request.prefetch) return { id: request.id, ...nextRows(request.prefetch) };
      return { id: request.id, ok: true, columns };
    }
    case 'next':
      return { id: request.id, ...nextRows(request.max) };
    case 'close':
      closeCurrent();
      return { id: request.id, ok: true };
    case 'attach':
      closeCurrent();
      connection(request.path); // a new connection reads the file's schema: SQLite's verdict on it
      return { id: request.id, ok: true };
    case 'detach':
      closeCurrent();
      detach(request.path);
      return { id: request.id, ok: true };
  }
}

/** Up to `max` rows of the open statement, with the columns and whether any row is left. */
function nextRows(max: number): { ok: true; rows: Cell[][]; columns: ResultColumn[]; done: boolean } {
  const raw: unknown[][] = [];
  while (rows && raw.length < max) {
    const step = rows.next();
    if (step.done) {
      rows = null;
      break;
    }
    raw.push(step.value);
  }
  if (!kindsSettled && (raw.length || rows === null)) {
    settleKinds(raw);
    kindsSettled = true;
  }
  const out: Cell[][] = raw.map((r) => r.map(toCell));
  return { ok: true, rows: out, columns, done: rows === null };
}

function closeCurrent(): void {
  rows?.return?.();
  rows = null;
}

/**
 * SQLite types values, not columns: an expression column has no declared type, and a declared
 * INTEGER column may hold REAL or TEXT values. The kinds reported for the result come from the raw
 * values of the first batch: any REAL makes a numeric column float, any TEXT in a numeric column
 * makes it text, so every value of that batch fits the column it is written to.
 */
function settleKinds(batch: unknown[][]): void {
  columns = columns.map((c, i) => {
    let ints = false;
    let floats = false;
    let texts = false;
    for (const row of batch) {
      const v = row[i];
      if (typeof v === 'bigint') ints = true;
      else if (typeof v === 'number') floats = true;
      else if (typeof v === 'string') texts = true;
    }
    if (c.kind === 'other') {
      const kind: TypeKind | null = texts ? 'text' : floats ? 'float' : ints ? 'integer' : null;
      return kind ? { ...c, kind } : c;
    }
    if ((c.kind === 'integer' || c.kind === 'decimal' || c.kind === 'float') && texts)
      return { ...c, kind: 'text' };
    if (c.kind === 'integer' && floats) return { ...c, kind: 'float' };
    return c;
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
