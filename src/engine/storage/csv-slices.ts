/**
 * Where the next CSV slice ends. Slices follow the parquet file's row groups: a slice reads whole
 * row groups while they fit the wanted size, and a row group too big for one slice is cut into
 * even pieces. A slice that started mid-group would make DuckDB decompress that group again, which
 * with small slices cost more than the formatting itself.
 */
export function nextSliceEnd(start: number, groupEnds: readonly number[], wantedRows: number): number {
  const firstEnd = groupEnds.find((end) => end > start);
  if (firstEnd === undefined) return start;
  const want = Math.max(1, Math.floor(wantedRows));
  const rest = firstEnd - start;
  if (rest > want * 1.5) return start + Math.ceil(rest / Math.ceil(rest / want));
  let end = firstEnd;
  for (const groupEnd of groupEnds) if (groupEnd > end && groupEnd - start <= want) end = groupEnd;
  return end;
}
