/**
 * Result comparison: rows as multisets (in order when the gold query orders them), numbers equal
 * within a small relative tolerance, numeric text equal to the number it spells (drivers differ in
 * how they return BIGINT and DECIMAL), booleans as 0/1.
 */
export type Cell = unknown;

const TOLERANCE = 1e-6;

export function normalizeCell(v: Cell): string | number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number' || typeof v === 'string') return v;
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  if (typeof v === 'object' && v !== null && 'toDouble' in v && typeof (v as any).toDouble === 'function') {
    return (v as any).toDouble() as number;
  }
  return JSON.stringify(v);
}

const NUMERIC = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

function cellsEqual(a: string | number | null, b: string | number | null): boolean {
  if (a === null || b === null) return a === b;
  if (typeof a === 'number' || typeof b === 'number') {
    const x = typeof a === 'number' ? a : NUMERIC.test(a) ? Number(a) : NaN;
    const y = typeof b === 'number' ? b : NUMERIC.test(b) ? Number(b) : NaN;
    if (Number.isNaN(x) || Number.isNaN(y)) return String(a) === String(b);
    return Math.abs(x - y) <= TOLERANCE * Math.max(1, Math.abs(x), Math.abs(y));
  }
  return a === b;
}

function rowKey(r: (string | number | null)[]): string {
  return JSON.stringify(r.map((c) => (typeof c === 'number' ? Number(c.toPrecision(9)) : c)));
}

export type CompareOutcome = { equal: true } | { equal: false; reason: string };

export function compareResults(
  gold: readonly (readonly Cell[])[],
  actual: readonly (readonly Cell[])[],
  ordered: boolean,
): CompareOutcome {
  const g = gold.map((r) => r.map(normalizeCell));
  const a = actual.map((r) => r.map(normalizeCell));
  if (g.length !== a.length) return { equal: false, reason: `row count ${a.length}, expected ${g.length}` };
  if (g.length && g[0]!.length !== a[0]!.length) {
    return { equal: false, reason: `column count ${a[0]!.length}, expected ${g[0]!.length}` };
  }
  const rowsEqual = (x: (string | number | null)[], y: (string | number | null)[]) =>
    x.length === y.length && x.every((c, i) => cellsEqual(c, y[i]!));
  const sort = (rows: (string | number | null)[][]) =>
    rows
      .map((r) => [rowKey(r), r] as const)
      .sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))
      .map((x) => x[1]);
  const gs = ordered ? g : sort(g);
  const as = ordered ? a : sort(a);
  for (let i = 0; i < gs.length; i++) {
    if (!rowsEqual(gs[i]!, as[i]!)) {
      if (ordered) {
        const sg = sort(g);
        const sa = sort(a);
        if (sg.every((r, j) => rowsEqual(r, sa[j]!)))
          return { equal: false, reason: 'same rows in another order' };
      }
      return {
        equal: false,
        reason: `row ${i}: got ${JSON.stringify(as[i])}, expected ${JSON.stringify(gs[i])}`,
      };
    }
  }
  return { equal: true };
}

export interface NamedResult {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly Cell[])[];
}

/**
 * Execution match as `nl2sql eval` judges it: the same multiset of rows, column order aside where
 * the two results name the same columns (case aside); by position otherwise.
 */
export function executionMatch(reference: NamedResult, actual: NamedResult): CompareOutcome {
  const ref = reference.columns.map((c) => c.toLowerCase());
  const act = actual.columns.map((c) => c.toLowerCase());
  const sameNames =
    ref.length === act.length && new Set(ref).size === ref.length && ref.every((c) => act.includes(c));
  const order = sameNames ? ref.map((c) => act.indexOf(c)) : null;
  const rows = order ? actual.rows.map((r) => order.map((i) => r[i])) : actual.rows;
  if (!sameNames && reference.rows.length === 0 && actual.rows.length === 0 && ref.length !== act.length)
    return { equal: false, reason: `column count ${act.length}, expected ${ref.length}` };
  return compareResults(reference.rows, rows, false);
}
