/** Datasources at runtime: list and describe (connections masked), add and remove (audited). */
import { Injectable } from '@nestjs/common';
import { ConfigError } from '../../config/config-error';
import { DatasourceRegistry, type ListedDatasource } from '../datasources/registry';
import { INTERNAL_DETAIL, PublicServerError } from '../errors';
import { OperatorEvents } from '../events/operator-events';
import { getLogger } from '../logging/logger';

export interface AdminCaller {
  readonly roles?: readonly string[];
}

@Injectable()
export class DatasourceAdmin {
  private readonly log = getLogger('nl2sql.engine');

  constructor(
    private readonly datasources: DatasourceRegistry,
    private readonly events: OperatorEvents,
  ) {}

  list(): ListedDatasource[] {
    return this.datasources.list();
  }

  describe(id: string): ListedDatasource {
    return this.datasources.describe(this.datasources.require(id));
  }

  /**
   * Runtime add: validated and built, not connected, not indexed; nothing written to files. A
   * config that does not validate is a ConfigError (its problems name keys only, never values);
   * any other failure may hold a connection string, so it is logged here and reported generically.
   */
  add(raw: unknown, by: AdminCaller = {}): ListedDatasource {
    let entry;
    try {
      entry = this.datasources.add(raw);
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      getLogger('nl2sql.datasource').error('adding a datasource failed', {
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      });
      throw new PublicServerError(
        'DATASOURCE_ADD_FAILED',
        `${INTERNAL_DETAIL} (the datasource could not be added)`,
      );
    }
    this.events.audit('datasource.added', { datasource_id: entry.config.id, roles: by.roles ?? [] });
    this.log.info('datasource added at runtime', { datasource_id: entry.config.id });
    return this.datasources.describe(entry);
  }

  /** Runtime remove: out of routing and the running config, pool closed; index entries stay. */
  async remove(id: string, by: AdminCaller = {}): Promise<void> {
    await this.datasources.remove(id);
    this.events.audit('datasource.removed', { datasource_id: id, roles: by.roles ?? [] });
    this.log.info('datasource removed at runtime', { datasource_id: id });
  }
}
