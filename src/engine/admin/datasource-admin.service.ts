/**
 * Datasources at runtime: list and describe (connections masked; with a viewer, the database's
 * comments that viewer's roles may read), add and remove (audited).
 */
import { Inject, Injectable } from '@nestjs/common';
import { ConfigError } from '../../config/config-error';
import { DatasourceRegistry, type DatasourceEntry, type ListedDatasource } from '../datasources/registry';
import { INTERNAL_DETAIL, PublicServerError } from '../errors';
import { OperatorEvents } from '../events/operator-events';
import { getLogger } from '../logging/logger';
import { ENGINE_CONFIG, type EngineConfig } from '../engine-config';
import { readableComments, type SchemaComment } from '../policy/schema-comments';

export interface AdminCaller {
  readonly roles?: readonly string[];
}

/** Who reads a listing: their roles decide which comments they see (none when no role came). */
export interface ListingViewer {
  readonly roles: readonly string[];
}

/** A listed datasource; `comments` once it has been introspected, when a viewer was given. */
export type DescribedDatasource = ListedDatasource & { comments?: SchemaComment[] };

@Injectable()
export class DatasourceAdmin {
  private readonly log = getLogger('nl2sql.engine');

  constructor(
    private readonly datasources: DatasourceRegistry,
    private readonly events: OperatorEvents,
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
  ) {}

  list(viewer?: ListingViewer): DescribedDatasource[] {
    return this.datasources.all().map((e) => this.withComments(e, viewer));
  }

  describe(id: string, viewer?: ListingViewer): DescribedDatasource {
    return this.withComments(this.datasources.require(id), viewer);
  }

  private withComments(entry: DatasourceEntry, viewer: ListingViewer | undefined): DescribedDatasource {
    const listed = this.datasources.describe(entry);
    if (!viewer || !entry.snapshot) return listed;
    return {
      ...listed,
      comments: readableComments(entry.snapshot, this.config.policies.roles, viewer.roles),
    };
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
