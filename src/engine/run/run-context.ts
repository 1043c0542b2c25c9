/**
 * Everything a node needs besides the state: the run's identity, its event emitter, the
 * cancellation signal, its accounting (usage, timings), and what it collects (errors, warnings).
 * Model calls go through `ctx.models`, which enforces the cost and call caps before each call.
 */
import { RunCancelledError } from '../errors';
import type { OperatorEvents } from '../events/operator-events';
import type { RunEventEmitter } from '../events/run-events';
import type { ModelGateway } from './model-gateway';
import type { NodeName } from './topology';
import type { PipelineErrorEntry, RunWarning } from './query-response';

export class RunContext {
  readonly started = Date.now();
  readonly timings: Record<string, number> = {};
  readonly errors: PipelineErrorEntry[] = [];
  readonly warnings: RunWarning[] = [];
  readonly reasoning: Record<string, unknown>[] = [];
  planCacheHits = 0;
  /** Unexpected failures: reported generically to the caller, logged with their stack. */
  readonly internalFailures: unknown[] = [];

  constructor(
    readonly traceId: string,
    readonly tenantId: string,
    readonly emitter: RunEventEmitter,
    readonly operator: OperatorEvents,
    readonly models: ModelGateway,
    readonly signal: AbortSignal,
  ) {}

  /** Throws when the client went away: checked before every step and every model call. */
  checkCancelled(): void {
    if (this.signal.aborted) throw new RunCancelledError();
  }

  /** Runs one step with its events and its wall time (summed when a step runs several times). */
  async step<T>(node: NodeName, subQueryId: string | null, body: () => Promise<T>): Promise<T> {
    this.checkCancelled();
    this.emitter.emit('node.started', { node, sub_query_id: subQueryId });
    const t0 = performance.now();
    let ok = false;
    try {
      const out = await body();
      ok = true;
      return out;
    } finally {
      const seconds = (performance.now() - t0) / 1000;
      this.timings[node] = round((this.timings[node] ?? 0) + seconds);
      this.emitter.emit('node.finished', { node, sub_query_id: subQueryId, seconds: round(seconds), ok });
      this.operator.emit('node.finished', { node, seconds, ok }, this.traceId);
    }
  }

  error(
    entry: Omit<PipelineErrorEntry, 'severity' | 'provider' | 'provider_response'> &
      Partial<PipelineErrorEntry>,
  ): void {
    this.errors.push({ severity: 'ERROR', provider: null, provider_response: null, ...entry });
  }

  warn(w: Omit<RunWarning, 'sub_query_id' | 'detail'> & Partial<RunWarning>): void {
    this.warnings.push({ sub_query_id: null, detail: null, ...w });
  }
}

function round(s: number): number {
  return Math.round(s * 1e6) / 1e6;
}
