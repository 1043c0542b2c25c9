/**
 * What one run costs, read from its response and the client's clock:
 *
 *   wall      client side, request sent -> last response byte
 *   model     sum of usage.calls[].latency_s (the oracle's answers, over real HTTP)
 *   sql       timings.executor: the statement on SQLite AND writing its Parquet artifact
 *   overhead  wall - model - sql: everything the service adds (HTTP, pipeline, validation,
 *             compilation, trace, serialisation)
 *
 * Server-side node timings that are not model time are kept too, to show where overhead goes.
 */

/** The parts of a QueryResponse the bench reads. */
export interface QueryResponseLite {
  readonly status: string;
  readonly trace_id: string;
  readonly errors: readonly { error_code: string; message: string; node?: string }[];
  readonly sub_queries: readonly {
    readonly id: string;
    readonly status: string;
    readonly rows: { columns: string[]; rows: unknown[][]; total_rows: number } | null;
  }[];
  readonly timings: Readonly<Record<string, number>>;
  readonly usage: {
    readonly calls: readonly { node: string; latency_s: number }[];
  };
}

export interface RunMeasure {
  readonly wallMs: number;
  readonly modelMs: number;
  readonly modelCalls: number;
  readonly sqlMs: number;
  readonly overheadMs: number;
  /** timings.total: the run inside the engine, before the trace is written and the body sent. */
  readonly engineMs: number;
  /** Per node: its time minus the model time spent inside it (ms). */
  readonly nodeOwnMs: Readonly<Record<string, number>>;
}

export function measureRun(res: QueryResponseLite, wallMs: number): RunMeasure {
  const modelByNode: Record<string, number> = {};
  let modelMs = 0;
  for (const call of res.usage.calls) {
    const ms = call.latency_s * 1000;
    modelMs += ms;
    modelByNode[call.node] = (modelByNode[call.node] ?? 0) + ms;
  }
  const sqlMs = (res.timings.executor ?? 0) * 1000;
  const nodeOwnMs: Record<string, number> = {};
  for (const [node, seconds] of Object.entries(res.timings)) {
    if (node === 'total') continue;
    nodeOwnMs[node] = seconds * 1000 - (modelByNode[node] ?? 0);
  }
  return {
    wallMs,
    modelMs,
    modelCalls: res.usage.calls.length,
    sqlMs,
    overheadMs: wallMs - modelMs - sqlMs,
    engineMs: (res.timings.total ?? 0) * 1000,
    nodeOwnMs,
  };
}

/** Nearest-rank percentile, rounded to the microsecond. */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return round3(sorted[i] ?? 0);
}

export function spread(values: readonly number[]): { p50: number; p95: number } {
  return { p50: percentile(values, 50), p95: percentile(values, 95) };
}

export function mean(values: readonly number[]): number {
  return values.length ? round3(values.reduce((s, v) => s + v, 0) / values.length) : 0;
}

export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
