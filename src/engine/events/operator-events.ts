/**
 * The engine's operator subscription: policy denials, hook decisions, model calls, step and SQL
 * timings, every run's end, and audit records (`audit.llm.changed`...). These never go to a
 * caller's stream; operators (metrics, audit logs, tests) subscribe here. Typed like run events:
 * each name has one data shape, so a subscriber reads fields instead of re-parsing a record.
 */
import { Subject, type Subscription } from 'rxjs';
import { redactDeep } from '../../config/redact';
import type { CallRecord } from '../llm/usage';

/** The changes of a `PUT /settings/llm`, per agent: provider/model before and after. */
export type LlmChanges = Record<string, { old: string | null; new: string | null }>;

export interface OperatorEventMap {
  /** A caller's roles were refused a datasource (routing) or a plan's tables or columns (validator). */
  'policy.denied':
    | {
        readonly roles: readonly string[];
        readonly rule: 'datasources';
        readonly datasource_id: string | null;
      }
    | {
        readonly roles: readonly string[];
        readonly sub_query_id: string;
        readonly problems: readonly {
          readonly code: string;
          readonly message: string;
          readonly path: string;
        }[];
      };
  'hook.decision': {
    readonly hook: string;
    readonly scope: 'run' | 'sub_query';
    readonly allow: boolean;
    readonly reason: string | null;
    readonly sub_query_id: string | null;
  };
  'model.call': CallRecord & { readonly agent: string };
  'node.finished': { readonly node: string; readonly seconds: number; readonly ok: boolean };
  /** A statement's time, rows streamed to its result included. */
  'sql.executed': {
    readonly datasource_id: string;
    readonly seconds: number;
    readonly rows: number;
    readonly ok: boolean;
  };
  /** Every run's end, whether or not anybody followed it. */
  'run.ended': {
    readonly status: 'success' | 'error' | 'plan_only' | 'cancelled' | 'failed';
    /** The response's `source.type`; null when the run ended without a response. */
    readonly source: 'verified' | 'generated' | null;
    readonly duration_s: number;
    readonly model_calls: number;
    readonly plan_cache_hits: number;
  };
  'audit.llm.changed': {
    readonly via: string;
    readonly user_id: string | null;
    readonly roles: readonly string[];
    readonly changes: LlmChanges;
  };
  'audit.datasource.added': { readonly datasource_id: string; readonly roles: readonly string[] };
  'audit.datasource.removed': { readonly datasource_id: string; readonly roles: readonly string[] };
  /** A caller rated a run (POST /api/v1/query/{request_id}/feedback): the audit record of feedback. */
  'feedback.recorded': {
    readonly feedback_id: string;
    readonly request_id: string;
    readonly rating: 'up' | 'down';
    readonly datasource_id: string | null;
    readonly has_comment: boolean;
    readonly has_correction: boolean;
    readonly roles: readonly string[];
    readonly user_id: string | null;
  };
  'audit.verified_query.added': {
    readonly id: string;
    readonly datasource_id: string;
    readonly roles: readonly string[];
    readonly user_id: string | null;
  };
  'audit.verified_query.removed': {
    readonly id: string;
    readonly datasource_id: string;
    readonly roles: readonly string[];
    readonly user_id: string | null;
  };
  /** A re-check after a schema change disabled a verified query (with the reason) or enabled it again. */
  'verified_query.status_changed': {
    readonly id: string;
    readonly datasource_id: string;
    readonly origin: 'config' | 'runtime';
    readonly previous: 'enabled' | 'disabled' | 'unchecked';
    readonly status: 'enabled' | 'disabled';
    readonly reason: string | null;
  };
}

export type OperatorEventName = keyof OperatorEventMap;

/** An audit record's name without its `audit.` prefix, as `OperatorEvents.audit` takes it. */
export type AuditRecord = OperatorEventName extends infer N
  ? N extends `audit.${infer R}`
    ? R
    : never
  : never;

/** One operator event; without a type argument, the union of all of them (switch on `name`). */
export type OperatorEvent<N extends OperatorEventName = OperatorEventName> = {
  [K in N]: {
    readonly name: K;
    readonly at: string;
    readonly tenant_id: string | null;
    readonly trace_id: string | null;
    readonly data: OperatorEventMap[K];
  };
}[N];

export class OperatorEvents {
  private readonly subject = new Subject<OperatorEvent>();

  constructor(private readonly tenantId: string | null = null) {}

  emit<N extends OperatorEventName>(name: N, data: OperatorEventMap[N], traceId: string | null = null): void {
    // Redaction walks every string: skip the work when no operator listens.
    if (!this.subject.observed) return;
    this.subject.next({
      name,
      at: new Date().toISOString(),
      tenant_id: this.tenantId,
      trace_id: traceId,
      data: redactDeep(data),
    } as OperatorEvent);
  }

  /** An audit record is an operator event whose name starts with `audit.`. */
  audit<R extends AuditRecord>(record: R, data: OperatorEventMap[`audit.${R}`]): void {
    this.emit(`audit.${record}`, data);
  }

  subscribe(listener: (event: OperatorEvent) => void): Subscription {
    return this.subject.subscribe(listener);
  }

  complete(): void {
    this.subject.complete();
  }
}
