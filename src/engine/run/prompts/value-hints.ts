/**
 * The value index's part of a planner prompt: per column of the snapshot, the stored values the
 * question names and the column's most frequent values. Keys are the schema prompt's
 * (lower-cased `table.column`); the index names tables as `schema.table` where there are schemas.
 * The schema prompt shows no value of a column the role may not read; `accept` also keeps such a
 * column's matches from pulling it into a large schema's linked part.
 */
import type { SchemaSnapshot } from '../../datasources/schema';
import { tableKey } from '../../index';
import { isValueColumn } from '../../index';
import type { ValueIndex, ValueMatch } from '../../index';
import type { ColumnValueHints, MatchedValue } from './schema-text';

/** Matches shown per column, and in all. */
const MATCHES_PER_COLUMN = 3;
const MATCHES_IN_ALL = 12;
const TYPICAL_PER_COLUMN = 3;

export interface ValueHints {
  readonly hints: Map<string, ColumnValueHints>;
  /** Lower-cased `table.column` of every column holding a match (retrieval must keep them). */
  readonly matchedColumns: Set<string>;
  readonly matches: readonly ValueMatch[];
}

export function valueHints(
  values: ValueIndex,
  question: string,
  datasourceId: string,
  snapshot: SchemaSnapshot,
  /** Matches that may be shown and linked (the caller's readable columns); all when absent. */
  accept?: (m: ValueMatch) => boolean,
): ValueHints {
  const byKey = new Map<string, string>();
  for (const t of snapshot.tables) byKey.set(tableKey(t), t.name);
  const found = values.lookup(question, {
    datasourceIds: [datasourceId],
    perColumn: MATCHES_PER_COLUMN,
    limit: MATCHES_IN_ALL,
  });
  const matches = accept ? found.filter(accept) : found;
  const matched = new Map<string, MatchedValue[]>();
  for (const m of matches) {
    const name = byKey.get(m.table);
    if (!name) continue;
    const key = `${name}.${m.column}`.toLowerCase();
    matched.set(key, [...(matched.get(key) ?? []), { value: m.value, kind: m.kind, phrase: m.phrase }]);
  }
  const hints = new Map<string, ColumnValueHints>();
  for (const t of snapshot.tables) {
    for (const c of t.columns) {
      if (!isValueColumn(c)) continue;
      const key = `${t.name}.${c.name}`.toLowerCase();
      const typical = values.typical(datasourceId, tableKey(t), c.name, TYPICAL_PER_COLUMN);
      const m = matched.get(key) ?? [];
      const unique = values.isUnique(datasourceId, tableKey(t), c.name);
      if (m.length || typical.length) hints.set(key, { matched: m, typical, unique });
    }
  }
  return { hints, matchedColumns: new Set(matched.keys()), matches };
}
