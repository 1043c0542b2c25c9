/**
 * What a build reads into the value index: the distinct text values of each text column, most
 * frequent first, bounded so that a large datasource costs a bounded build. The datasource does
 * the counting in its own SQL (and samples a very large table there); nothing pulls a table into
 * memory, only the capped list of values per column comes back.
 */
import type { ColumnInfo, SchemaSnapshot, TableInfo } from '../../datasources/schema';
import { tableKey } from '../entries';
import { isIndexableValue } from './normalise';
import type { StoredValue } from './value-index';

/** Bounds of one datasource's values. */
export interface ValueLimits {
  /** Distinct values kept per column (the most frequent). */
  readonly perColumn: number;
  /** Distinct values kept per datasource; columns past it are not read. */
  readonly perDatasource: number;
  /** Tables with more rows than this are sampled to about this many rows. */
  readonly scanRows: number;
}

export const DEFAULT_VALUE_LIMITS: ValueLimits = {
  perColumn: 1000,
  perDatasource: 200_000,
  scanRows: 200_000,
};

export interface DistinctValue {
  readonly value: string;
  readonly count: number;
}

/** Where values come from: a datasource adapter, or a bench's own reader. */
export interface ValueSource {
  /**
   * The `limit` most frequent non-null values of a column, with their counts; over a sample of about
   * `sampleRows` rows when given (a table larger than the scan bound), else over the whole table.
   */
  distinctValues(
    table: Pick<TableInfo, 'name' | 'schema'>,
    column: string,
    options: {
      readonly limit: number;
      readonly sampleRows: number | null;
      readonly tableRows?: number | null;
    },
  ): Promise<DistinctValue[]>;
}

/** Text columns: a question names their values. Other kinds hold numbers, dates and flags. */
export function isValueColumn(c: ColumnInfo): boolean {
  return c.kind === 'text' || (c.kind === 'other' && c.sampleValues.some((v) => typeof v === 'string'));
}

export async function collectValues(
  snapshot: SchemaSnapshot,
  source: ValueSource,
  limits: ValueLimits = DEFAULT_VALUE_LIMITS,
): Promise<StoredValue[]> {
  const out: StoredValue[] = [];
  for (const t of snapshot.tables) {
    const rows = t.rowCountEstimate;
    const sampleRows = rows !== null && rows > limits.scanRows ? limits.scanRows : null;
    for (const c of t.columns) {
      if (!isValueColumn(c)) continue;
      const room = limits.perDatasource - out.length;
      if (room <= 0) return out;
      const found = await source.distinctValues(t, c.name, {
        limit: Math.min(limits.perColumn, room),
        sampleRows,
        tableRows: rows,
      });
      for (const v of found) {
        if (typeof v.value !== 'string' || !isIndexableValue(v.value)) continue;
        out.push({
          datasourceId: snapshot.datasourceId,
          table: tableKey(t),
          column: c.name,
          value: v.value,
          frequency: v.count,
        });
      }
    }
  }
  return out;
}
