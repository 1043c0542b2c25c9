/**
 * Drift: when a datasource's schema_version changes (an index build reads the schema again, a
 * failed datasource reconnects, a datasource added at runtime connects), every verified query of
 * that datasource is checked again. One that no longer passes is disabled with the reason (no path
 * serves it: the catalog hands out enabled queries only), one that passes again is enabled. Each
 * change is logged and sent as the operator event `verified_query.status_changed` (metrics count
 * them); GET /api/v1/verified-queries and the index status list the disabled ones.
 */
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { DatasourceRegistry, type DatasourceEntry } from '../datasources/registry';
import { OperatorEvents } from '../events/operator-events';
import { getLogger } from '../logging/logger';
import { VerifiedQueries, type StatusChange } from './verified-queries';

const log = getLogger('nl2sql.verified');

@Injectable()
export class VerifiedDrift implements OnModuleDestroy {
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly datasources: DatasourceRegistry,
    private readonly verified: VerifiedQueries,
    private readonly events: OperatorEvents,
  ) {}

  /**
   * Starts following schema changes. Called once start-up has checked every verified query (a
   * configured one that fails then stops the service instead of being disabled); reports the
   * runtime ones that start-up check disabled.
   */
  start(): void {
    if (this.unsubscribe) return;
    for (const e of this.verified.list())
      if (e.origin === 'runtime' && e.status === 'disabled')
        log.warn('a verified query added at runtime no longer passes its check: disabled', {
          id: e.definition.id,
          datasource_id: e.definition.datasource_id,
          reason: e.reason,
        });
    this.unsubscribe = this.datasources.onSchemaChange((entry) => this.recheck(entry));
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private recheck(entry: DatasourceEntry): void {
    if (!entry.snapshot) return;
    for (const change of this.verified.recheck(entry.config.id, entry.snapshot)) this.report(change);
  }

  private report(change: StatusChange): void {
    const fields = { id: change.id, datasource_id: change.datasource_id, reason: change.reason };
    if (change.status === 'disabled')
      log.warn('the schema changed and a verified query no longer passes its check: disabled', fields);
    else
      log.info(
        `a verified query passes its check${change.previous === 'disabled' ? ' again' : ''}: enabled`,
        fields,
      );
    this.events.emit('verified_query.status_changed', {
      id: change.id,
      datasource_id: change.datasource_id,
      origin: change.origin,
      previous: change.previous,
      status: change.status,
      reason: change.reason,
    });
  }
}
