/** Recall and rank figures shared by both methods of the retrieval bench. */

/** Share of `gold` found in `retrieved`; null when there is nothing to find (COUNT(*) questions have no column). */
export function recall(gold: ReadonlySet<string>, retrieved: readonly string[]): number | null {
  if (!gold.size) return null;
  const got = new Set(retrieved);
  let hit = 0;
  for (const g of gold) if (got.has(g)) hit++;
  return hit / gold.size;
}

export class Mean {
  private sum = 0;
  private n = 0;
  add(x: number | null | boolean): void {
    if (x === null) return;
    this.sum += typeof x === 'boolean' ? (x ? 1 : 0) : x;
    this.n++;
  }
  get value(): number {
    return this.n ? Math.round((this.sum / this.n) * 10000) / 10000 : 0;
  }
}

export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[i] ?? 0) * 1000) / 1000;
}

export interface MethodFigures {
  routing_top1: number;
  routing_top3: number;
  table_recall_at_3: number;
  column_recall_at_10: number;
  pooled_table_recall_at_5: number;
  pooled_column_recall_at_10: number;
  build_s: number;
  query_ms: { p50: number; p95: number };
}

/** Accumulates one method's figures question by question. */
export class MethodScore {
  readonly top1 = new Mean();
  readonly top3 = new Mean();
  readonly tables3 = new Mean();
  readonly columns10 = new Mean();
  readonly pooledTables5 = new Mean();
  readonly pooledColumns10 = new Mean();
  readonly latencies: number[] = [];
  buildSeconds = 0;

  figures(): MethodFigures {
    return {
      routing_top1: this.top1.value,
      routing_top3: this.top3.value,
      table_recall_at_3: this.tables3.value,
      column_recall_at_10: this.columns10.value,
      pooled_table_recall_at_5: this.pooledTables5.value,
      pooled_column_recall_at_10: this.pooledColumns10.value,
      build_s: Math.round(this.buildSeconds * 1000) / 1000,
      query_ms: { p50: percentile(this.latencies, 50), p95: percentile(this.latencies, 95) },
    };
  }
}
