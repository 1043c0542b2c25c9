/**
 * Caller-safe run events (spec 6), in the stream envelope `{name, at, trace_id, tenant_id, data}`.
 * A run's events go to the subscriber of its cold Observable (RunService.stream). Nothing
 * operator-only (policy denials, hook decisions, model calls) is ever emitted here.
 */
import type { ErrorCode } from '../errors';
import type { QueryResponse, ResultSummary, RunStatus } from '../run/query-response';
import { OutgoingPieces, redactEventData, type RedactionKind } from '../redaction/outgoing';

export interface RunEventMap {
  'run.started': {
    question: string;
    user_id: string | null;
    tenant_id: string;
    roles: readonly string[];
    datasource_id: string | null;
    execute: boolean;
    /** The names of the caller's attributes (row filters read them), sorted. */
    attributes: readonly string[];
    /** Their values, only with `api.event_attribute_values`. */
    attribute_values?: Readonly<Record<string, string>>;
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

/**
 * How each event's data is redacted on its way out (redaction/outgoing.ts): a new event does not
 * compile until it says how.
 */
const REDACTION: { readonly [N in RunEventName]: RedactionKind } = {
  'run.started': 'whole',
  'node.started': 'whole',
  'node.finished': 'whole',
  'result.manifest': 'whole',
  'answer.delta': 'pieces',
  'sanity.flagged': 'whole',
  'run.limit_reached': 'whole',
  'run.finished': 'result',
  'run.failed': 'whole',
};

/** Where a run's events go: the subscriber of the run's Observable. */
export type RunEventSink = (event: RunEvent) => void;

export class RunEventEmitter {
  private ended = false;
  /** The streamed answer's pieces, held until redacting them apart is redacting them together. */
  private readonly pieces = new OutgoingPieces<RunEventMap['answer.delta']['field']>();

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

  /** Every event leaves redacted: this is where engine text becomes what a caller receives. */
  emit<N extends RunEventName>(name: N, data: RunEventMap[N]): void {
    const terminal = TERMINAL_EVENTS.includes(name);
    if (this.ended || (!this.observed && !terminal)) return;
    const kind = REDACTION[name];
    if (kind === 'pieces') {
      for (const piece of this.pieces.push(data as RunEventMap['answer.delta']))
        this.send('answer.delta', piece);
      return;
    }
    for (const piece of this.pieces.flush()) this.send('answer.delta', piece);
    this.send(name, redactEventData(data, kind));
  }

  private send<N extends RunEventName>(name: N, data: RunEventMap[N]): void {
    if (this.ended) return;
    const event = {
      name,
      at: new Date().toISOString(),
      trace_id: this.traceId,
      tenant_id: this.tenantId,
      data,
    } as RunEvent;
    if (TERMINAL_EVENTS.includes(name)) this.ended = true;
    this.sink(event);
  }

  get finished(): boolean {
    return this.ended;
  }
}
