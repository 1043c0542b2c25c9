/**
 * Caller-safe run events (spec 6), in the stream envelope `{name, at, trace_id, tenant_id, data}`.
 * A run's events go to one RxJS subject: the stream route relays it, `/query` ignores it. Nothing
 * operator-only (policy denials, hook decisions, model calls) is ever emitted here.
 */
import { EMPTY, ReplaySubject, type Observable } from 'rxjs';
import { redact } from '../../config/redact';

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
  'result.manifest': { results: unknown[] };
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
  'run.finished': { status: string; duration_s: number; result: unknown; [k: string]: unknown };
  'run.failed': { message: string; error_code: string; user_id?: string | null; roles?: readonly string[] };
}

export type RunEventName = keyof RunEventMap;

export interface RunEvent<N extends RunEventName = RunEventName> {
  readonly name: N;
  readonly at: string;
  readonly trace_id: string;
  readonly tenant_id: string | null;
  readonly data: RunEventMap[N];
}

export const TERMINAL_EVENTS: readonly RunEventName[] = ['run.finished', 'run.failed'];

export class RunEventEmitter {
  // Replay so a subscriber that attaches just after the run starts still sees `run.started`.
  private readonly subject: ReplaySubject<RunEvent> | null;
  private ended = false;

  /**
   * `observed` false: nobody will follow this run's events (`POST /query`, `engine.run()`), so
   * none is built or kept (a replay buffer of every event, the whole response in the last one),
   * and steps may skip work that only a follower sees, such as streaming the answer's pieces.
   */
  constructor(
    readonly traceId: string,
    readonly tenantId: string | null,
    readonly observed = true,
  ) {
    this.subject = observed ? new ReplaySubject<RunEvent>(Infinity) : null;
  }

  /** The run's events; for a run started unobserved, none (it completes at once). */
  get events$(): Observable<RunEvent> {
    return this.subject ? this.subject.asObservable() : EMPTY;
  }

  emit<N extends RunEventName>(name: N, data: RunEventMap[N]): void {
    if (this.ended || !this.subject) return;
    const event = {
      name,
      at: new Date().toISOString(),
      trace_id: this.traceId,
      tenant_id: this.tenantId,
      data,
    } as RunEvent;
    if (name === 'run.failed')
      (event.data as RunEventMap['run.failed']).message = redact((data as RunEventMap['run.failed']).message);
    this.subject.next(event);
    if (TERMINAL_EVENTS.includes(name)) {
      this.ended = true;
      this.subject.complete();
    }
  }

  get finished(): boolean {
    return this.ended;
  }
}
