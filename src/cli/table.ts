/** Rows as an aligned text table for a terminal; long cells are cut. */
const MAX_CELL = 40;

export function formatTable(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const text = (v: unknown) => {
    const s = v === null || v === undefined ? 'NULL' : typeof v === 'string' ? v : JSON.stringify(v);
    return s.length > MAX_CELL ? `${s.slice(0, MAX_CELL - 1)}…` : s;
  };
  const cells = rows.map((r) => columns.map((_, i) => text(r[i])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: readonly string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join(' | ')
      .trimEnd();
  return [line(columns), widths.map((w) => '-'.repeat(w)).join('-+-'), ...cells.map(line)].join('\n');
}
