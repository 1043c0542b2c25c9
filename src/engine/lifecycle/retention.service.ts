/**
 * Retention: deletes traces and results older than their store's max_age_days, once at start-up
 * and then every `purgeIntervalS` seconds (PURGE_INTERVAL_S for the server). A failure is logged,
 * never thrown.
 */
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { ENGINE_CONFIG, type EngineConfig } from '../engine-config';
import { getLogger } from '../logging/logger';
import { purge, type PurgeReport } from '../storage';

export const PURGE_INTERVAL_S = Symbol('nl2sql.purge-interval-s');

@Injectable()
export class RetentionService implements OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private readonly log = getLogger('nl2sql.engine');

  constructor(
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
    @Inject(PURGE_INTERVAL_S) private readonly intervalS: number,
  ) {}

  /** The start-up purge, then the timer (unref'd: it never keeps the process alive). */
  async start(): Promise<void> {
    await this.purge();
    if (this.timer || !Number.isFinite(this.intervalS) || this.intervalS <= 0) return;
    this.timer = setInterval(() => void this.purge(), this.intervalS * 1000);
    this.timer.unref();
  }

  async purge(now = new Date()): Promise<PurgeReport> {
    const { results, traces } = this.config.storage;
    try {
      const report = await purge(
        {
          results: { path: results.path, maxAgeDays: results.max_age_days },
          traces: { path: traces.path, maxAgeDays: traces.max_age_days },
        },
        now,
      );
      for (const e of report.errors) this.log.warn('purge could not remove an entry', { reason: e });
      if (report.removed.results || report.removed.traces)
        this.log.info('purged old results and traces', { ...report.removed });
      return report;
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.log.error('purge failed', { reason });
      return { removed: { results: 0, traces: 0 }, errors: [reason] };
    }
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
