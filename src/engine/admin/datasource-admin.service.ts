/** Datasources at runtime: list and describe (connections masked), add and remove (audited). */
import { Inject, Injectable } from '@nestjs/common';
import { ConfigError, type ConfigProblem } from '../../config/config-error';
import type { AppConfig } from '../../config/defaults';
import { RuntimeSecretPolicy } from '../../config/runtime-secrets';
import { DatasourceConfigSchema } from '../../config/schema';
import { SecretManager } from '../../config/secrets';
import { validateStrict } from '../../config/strict-validate';
import { DatasourceError } from '../datasources/errors';
import { DatasourceRegistry, type DatasourceEntry, type ListedDatasource } from '../datasources/registry';
import { INTERNAL_DETAIL, PublicServerError } from '../errors';
import { OperatorEvents } from '../events/operator-events';
import { ENGINE_CONFIG } from '../engine-config';
import { getLogger } from '../logging/logger';

export interface AdminCaller {
  readonly roles?: readonly string[];
}

@Injectable()
export class DatasourceAdmin {
  private readonly log = getLogger('nl2sql.engine');
  private readonly runtimeSecrets: RuntimeSecretPolicy;
  /** What a runtime datasource's pool resolves references with: only the allowed ones. */
  private readonly restrictedSecrets: SecretManager;

  constructor(
    private readonly datasources: DatasourceRegistry,
    private readonly events: OperatorEvents,
    @Inject(ENGINE_CONFIG) config: AppConfig,
    secrets: SecretManager,
  ) {
    this.runtimeSecrets = new RuntimeSecretPolicy(config.secrets.runtime_allowed);
    this.restrictedSecrets = secrets.restrictedTo(this.runtimeSecrets);
  }

  list(): ListedDatasource[] {
    return this.datasources.list();
  }

  describe(id: string): ListedDatasource {
    return this.datasources.describe(this.datasources.require(id));
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
