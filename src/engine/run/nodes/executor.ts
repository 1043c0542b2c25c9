/**
 * Step `executor`: runs the compiled SQL read-only and streams the result, batch by batch, into
 * the run's Parquet artifact while keeping a capped inline sample. The whole result is never in
 * memory. The compiler bounded the SQL to row_cap + 1 rows: seeing the extra row means the result
 * was cut (`truncated`), and that row is not kept.
 */
import { Inject, Injectable } from '@nestjs/common';
import { ENGINE_CONFIG, type EngineConfig } from '../../engine-config';
import { DatasourceRegistry } from '../../datasources/registry';
import { ResultStore } from '../../storage/result-store';
import { timeoutMsOf } from '../../../config/defaults';
import type { ResultBatch, ResultColumn } from '../../datasources/adapter';
import type { RunContext } from '../run-context';
import type { SubQueryAttempt } from '../run-state';
import type { SubQueryNode } from '../node';
import { PlanRejectedError } from '../../errors';

@Injectable()
export class Executor implements SubQueryNode {
  constructor(
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
    private readonly datasources: DatasourceRegistry,
    private readonly results: ResultStore,
  ) {}

  /** A plan-only run (`execute: false`) stops at the generator. */
  applies(attempt: SubQueryAttempt): boolean {
    return attempt.run.request.execute;
  }

  async run(attempt: SubQueryAttempt, ctx: RunContext): Promise<void> {
    const { sq } = attempt;
    const entry = await this.datasources.use(sq.datasourceId);
    if (!sq.executableSql) throw new PlanRejectedError('PLAN_MISSING', ['no SQL to execute']);
    const cap = sq.datasourceRowCap ?? Number.MAX_SAFE_INTEGER;
    const sampleSize = this.config.settings.pipeline.sample_rows;
    let columns: readonly ResultColumn[] = [];
    let kept = 0;
    let truncated = false;
    const source = entry.adapter.stream(sq.executableSql, sq.params, {
      timeoutMs: timeoutMsOf(entry.config),
      maxRows: cap + 1,
      signal: ctx.signal,
    });
    // Passes batches through to the artifact writer, cutting at the cap.
    async function* capped(): AsyncGenerator<ResultBatch> {
      for await (const batch of source) {
        columns = batch.columns;
        let rows = batch.rows;
        if (kept + rows.length > cap) {
          rows = rows.slice(0, cap - kept);
          truncated = true;
        }
        kept += rows.length;
        // The batch that was cut carries the flag, so the manifest records the truncation.
        if (rows.length || truncated) yield { columns: batch.columns, rows, truncated };
        if (truncated) return;
      }
    }
    const started = performance.now();
    let ok = false;
    try {
      // The sample as stored: a value the column could not hold as it came is its text there too.
      const stored = await this.results.writeResult(ctx.tenantId, ctx.traceId, sq.id, capped(), {
        sampleRows: sampleSize,
      });
      const artifact = stored.ref;
      ok = true;
      sq.artifact = artifact;
      sq.truncated = truncated;
      sq.rowCount = kept;
      const names = columns.length ? columns.map((c) => c.name) : artifact.columns;
      sq.rows = { columns: names, rows: stored.sample, total_rows: kept };
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (code === 'DATASOURCE_QUERY_FAILED') {
        throw new PlanRejectedError(code, [`the database rejected the SQL: ${(err as Error).message}`]);
      }
      throw err;
    } finally {
      // For operators (metrics): the statement's time, rows streamed to the result included.
      ctx.operator.emit(
        'sql.executed',
        { datasource_id: sq.datasourceId, seconds: (performance.now() - started) / 1000, rows: kept, ok },
        ctx.traceId,
      );
    }
  }
}
