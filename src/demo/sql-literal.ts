/** SQL literals for the generator's own constants (never for user input: those are bound parameters). */

export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

export function sqlNumber(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  return String(value);
}

export function sqlValue(value: string | number | null): string {
  if (value === null) return 'NULL';
  return typeof value === 'number' ? sqlNumber(value) : sqlString(value);
}

/** A DuckDB list literal: `['a', 'b']`. */
export function sqlList(values: readonly (string | number)[]): string {
  return `[${values.map((v) => sqlValue(v)).join(', ')}]`;
}

/** Each value repeated `weight` times, so that picking a uniform element is a weighted choice. */
export function weightedList<T extends string | number>(entries: readonly (readonly [T, number])[]): T[] {
  return entries.flatMap(([value, weight]) => Array.from({ length: weight }, () => value));
}

/** `(a, b), (c, d)` rows for `INSERT ... VALUES` or `FROM (VALUES ...)`. */
export function sqlRows(rows: readonly (readonly (string | number | null)[])[]): string {
  return rows.map((row) => `(${row.map((v) => sqlValue(v)).join(', ')})`).join(',\n');
}
