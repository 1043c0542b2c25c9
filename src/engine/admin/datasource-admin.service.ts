/**
 * Datasources at runtime: list and describe (connections masked; with a viewer, the database's
 * comments that viewer's roles may read), add and remove (audited).
 */
import { Inject, Injectable } from '@nestjs/common';
import { ConfigError, type ConfigProblem } from '../../config/config-error';
import { RuntimeSecretPolicy } from '../../config/runtime-secrets';
import { DatasourceConfigSchema } from '../../config/schema';
import { SecretManager } from '../../config/secrets';
import { validateStrict } from '../../config/strict-validate';
import { DatasourceError } from '../datasources/errors';
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
  private readonly runtimeSecrets: RuntimeSecretPolicy;
  /** What a runtime datasource's pool resolves references with: only the allowed ones. */
  private readonly restrictedSecrets: SecretManager;

  constructor(
    private readonly datasources: DatasourceRegistry,
    private readonly events: OperatorEvents,
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
    secrets: SecretManager,
  ) {
    this.runtimeSecrets = new RuntimeSecretPolicy(config.secrets.runtime_allowed);
    this.restrictedSecrets = secrets.restrictedTo(this.runtimeSecrets);
  }

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
   * Runtime add: validated and built, not connected, not indexed; nothing written to files. Every
   * problem of the config, the schema's and the connection's own (url or host, the database in a
   * URL), is a ConfigError naming keys only: a 422, never a 500 for bad input. A secret reference
   * the operator did not allow for runtime configs (secrets.runtime_allowed) is one of them, and
   * the pool could not resolve it anyway. Any other failure may hold a connection string, so it is
   * logged here and reported generically.
   */
  add(raw: unknown, by: AdminCaller = {}): ListedDatasource {
    let entry;
    try {
      entry = this.build(raw);
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

  private build(raw: unknown): DatasourceEntry {
    // The schema first: a reference's place is only known in a config of the right shape.
    const problems = validateStrict(DatasourceConfigSchema, raw);
    if (!problems.length) problems.push(...this.runtimeSecrets.problems(DatasourceConfigSchema, raw));
    if (problems.length) throw new ConfigError(problems, 'datasource');
    try {
      return this.datasources.add(raw, 'datasource', this.restrictedSecrets);
    } catch (err) {
      if (err instanceof DatasourceError && err.code === 'DATASOURCE_CONFIG_INVALID') {
        const problems = err.details.problems as ConfigProblem[] | undefined;
        throw new ConfigError(problems ?? [{ path: 'connection', message: err.message }], 'datasource');
      }
      throw err;
    }
  }

  /** Runtime remove: out of routing and the running config, pool closed; index entries stay. */
  async remove(id: string, by: AdminCaller = {}): Promise<void> {
    await this.datasources.remove(id);
    this.events.audit('datasource.removed', { datasource_id: id, roles: by.roles ?? [] });
    this.log.info('datasource removed at runtime', { datasource_id: id });
  }
}
