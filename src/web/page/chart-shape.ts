/**
 * Which chart, if any, suits a result: one category and one number give bars; a date or time
 * followed by numbers gives lines. Column types are not on the wire, so they are read from the
 * values (DECIMAL and BIGINT arrive as strings of digits).
 */
export type ChartShape =
  { kind: 'bar'; label: number; value: number } | { kind: 'line'; x: number; series: number[] } | null;

type Kind = 'number' | 'integer' | 'temporal' | 'text' | 'empty';

const NUMERIC = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;
const TEMPORAL = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && NUMERIC.test(value.trim())) return Number(value);
  return null;
}

function kindOf(rows: readonly unknown[][], column: number): Kind {
  let kind: Kind = 'empty';
  for (const row of rows) {
    const v = row[column];
    if (v === null || v === undefined) continue;
    let k: Kind;
    if (typeof v === 'string' && TEMPORAL.test(v)) k = 'temporal';
    else if (numberOf(v) !== null) k = Number.isInteger(numberOf(v)) ? 'integer' : 'number';
    else k = 'text';
    if (kind === 'empty' || kind === k) kind = k;
    else if ((kind === 'integer' && k === 'number') || (kind === 'number' && k === 'integer'))
      kind = 'number';
    else return 'text';
  }
  return kind;
}

const isNumeric = (k: Kind) => k === 'number' || k === 'integer';

/** The chart for these rows, or null when none fits (too few rows, no measure, several measures for bars). */
export function chartShape(columns: readonly string[], rows: readonly unknown[][]): ChartShape {
  if (columns.length < 2 || rows.length < 2) return null;
  const kinds = columns.map((_, i) => kindOf(rows, i));
  if (kinds[0] === 'temporal') {
    const series = kinds.flatMap((k, i) => (i > 0 && isNumeric(k) ? [i] : []));
    const others = kinds.filter((k, i) => i > 0 && !isNumeric(k) && k !== 'empty');
    return series.length && !others.length ? { kind: 'line', x: 0, series: series.slice(0, 6) } : null;
  }
  // The category is the first column (text, or a small integer such as a month or a year).
  const first = kinds[0];
  if (first !== 'text' && first !== 'integer') return null;
  const measures = kinds.flatMap((k, i) => (i > 0 && isNumeric(k) ? [i] : []));
  if (measures.length !== 1) return null;
  if (kinds.some((k) => k === 'temporal')) return null;
  return { kind: 'bar', label: 0, value: measures[0]! };
}
