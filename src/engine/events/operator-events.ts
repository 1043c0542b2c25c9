/**
 * The engine's operator subscription: policy denials, hook decisions, model calls and audit
 * records (`llm.changed`...). These never go to a caller's stream; operators subscribe here.
 */
import { Subject, type Subscription } from 'rxjs';
import { redactDeep } from '../../config/redact';

export interface OperatorEvent {
  /** e.g. `policy.denied`, `hook.decision`, `model.call`, `audit.llm.changed`, `datasource.added`. */
  readonly name: string;
  readonly at: string;
  readonly tenant_id: string | null;
  readonly trace_id: string | null;
  readonly data: Record<string, unknown>;
}

export class OperatorEvents {
  private readonly subject = new Subject<OperatorEvent>();

  constructor(private readonly tenantId: string | null = null) {}

  emit(name: string, data: Record<string, unknown>, traceId: string | null = null): void {
    // Redaction walks every string: skip the work when no operator listens.
    if (!this.subject.observed) return;
    this.subject.next({
      name,
      at: new Date().toISOString(),
      tenant_id: this.tenantId,
      trace_id: traceId,
      data: redactDeep(data),
    });
  }

  /** An audit record is an operator event whose name starts with `audit.`. */
  audit(record: string, data: Record<string, unknown>): void {
    this.emit(`audit.${record}`, data);
  }

  subscribe(listener: (event: OperatorEvent) => void): Subscription {
    return this.subject.subscribe(listener);
  }

  complete(): void {
    this.subject.complete();
  }
}
