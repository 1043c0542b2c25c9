/**
 * Where the model layer sends its audit records and log lines. The engine's OperatorEvents
 * (src/engine/events/operator-events.ts) already satisfies `AuditSink`; tests pass a recorder.
 */
import type { OperatorEventMap } from '../events/operator-events';

export interface AuditSink {
  /** The model layer's one audit record, `llm.changed`. The sink adds time and tenant. */
  audit(record: 'llm.changed', data: OperatorEventMap['audit.llm.changed']): void;
}

/** The part of a winston logger the model layer uses (logger name `nl2sql.llm`). */
export interface LlmLogger {
  info(message: string, meta?: Record<string, unknown>): unknown;
  warn(message: string, meta?: Record<string, unknown>): unknown;
}

/** Keeps the records in memory: for programmatic use without an engine, and for tests. */
export class MemoryAuditSink implements AuditSink {
  readonly records: { record: string; data: OperatorEventMap['audit.llm.changed'] }[] = [];

  audit(record: 'llm.changed', data: OperatorEventMap['audit.llm.changed']): void {
    this.records.push({ record, data: structuredClone(data) });
  }
}
