/**
 * Builds the demo database of every `duckdb` datasource whose connection says `demo: true`, when its
 * file is missing or stale. Given to the engine module as a DatasourcePreparer by the app and by
 * createEngine, so the engine itself never knows the demo exists.
 */
import type { DatasourceConfig } from '../config/schema';
import { DatasourcePreparer } from '../engine/datasources/preparer';
import { getLogger } from '../engine/logging/logger';
import { ensureDemoDatabase } from './demo-database';

export class DemoDatabasePreparer extends DatasourcePreparer {
  private readonly log = getLogger('nl2sql.demo');

  async prepare(datasources: readonly DatasourceConfig[]): Promise<void> {
    for (const ds of datasources) {
      const conn = ds.connection;
      if (ds.type !== 'duckdb' || !conn.demo || !conn.path) continue;
      const result = await ensureDemoDatabase(conn.path);
      if (result.created) {
        this.log.info('built the demo database', {
          datasource_id: ds.id,
          path: conn.path,
          seconds: result.seconds,
        });
      }
    }
  }
}
