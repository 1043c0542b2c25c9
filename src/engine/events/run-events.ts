/**
 * Caller-safe run events (spec 6), in the stream envelope `{name, at, trace_id, tenant_id, data}`.
 * A run's events go to the subscriber of its cold Observable (RunService.stream). Nothing
 * operator-only (policy denials, hook decisions, model calls) is ever emitted here.
 */
import { redact } from '../../config/redact';
import type { ErrorCode } from '../errors';
import type { QueryResponse, ResultSummary, RunStatus } from '../run/query-response';

export interface RunEventMap {
  'run.started': {
    question: string;
    user_id: string | null;
    tenant_id: string;
    roles: readonly string[];
    datasource_id: string | null;
    execute: boolean;
  };
  'node.started': { node: string; sub_query_id: string | null };
  'node.finished': { node: string; sub_query_id: string | null; seconds: number; ok: boolean };
  'result.manifest': { results: ResultSummary[] };
  'answer.delta': { field: 'summary' | 'content'; text: string };
  'sanity.flagged': {
    check: string;
    message: string;
    sub_query_id: string | null;
    detail: Record<string, unknown> | null;
  };
  'run.limit_reached': {
    limit: 'max_cost_usd' | 'max_model_calls';
    value: number;
    used: number;
    node: string;
  };
  'run.finished': {
    status: RunStatus;
    duration_s: number;
    sub_queries: number;
    errors: number;
    user_id: string | null;
    roles: readonly string[];
    /** What `POST /api/v1/query` returns for the same run. */
    result: QueryResponse;
  };
  'run.failed': {
    message: string;
    error_code: ErrorCode;
    user_id?: string | null;
    roles?: readonly string[];
  };
}

export type RunEventName = keyof RunEventMap;

/** One run event; without a type argument, the union of all of them (switch on `name`). */
export type RunEvent<N extends RunEventName = RunEventName> = {
  [K in N]: {
    readonly name: K;
    readonly at: string;
    readonly trace_id: string;
    readonly tenant_id: string | null;
    readonly data: RunEventMap[K];
  };
}[N];

export const TERMINAL_EVENTS: readonly RunEventName[] = ['run.finished', 'run.failed'];

/** Where a run's events go: the subscriber of the run's Observable. */
export type RunEventSink = (event: RunEvent) => void;

export class RunEventEmitter {
  private ended = false;

  /**
   * `observed` false: nobody follows this run's events (`POST /query`, `RunService.run()`), so only
   * the terminal event is built, and steps may skip work that only a follower sees, such as
   * streaming the answer's pieces.
   */
  constructor(
    readonly traceId: string,
    readonly tenantId: string | null,
    private readonly sink: RunEventSink,
    readonly observed = true,
  ) {}

  emit<N extends RunEventName>(name: N, data: RunEventMap[N]): void {
    const terminal = TERMINAL_EVENTS.includes(name);
    if (this.ended || (!this.observed && !terminal)) return;
    const event = {
      name,
      at: new Date().toISOString(),
      trace_id: this.traceId,
      tenant_id: this.tenantId,
      data: name === 'run.failed' ? redactFailure(data as RunEventMap['run.failed']) : data,
    } as RunEvent;
    if (terminal) this.ended = true;
    this.sink(event);
  }

  get finished(): boolean {
    return this.ended;
  }
}

/** A failure's message may quote its cause: redacted like everything that leaves the engine. */
function redactFailure(data: RunEventMap['run.failed']): RunEventMap['run.failed'] {
  return { ...data, message: redact(data.message) };
}
