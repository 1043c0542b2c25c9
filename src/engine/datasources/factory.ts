/**
 * Builds the adapter of one datasource config. Nothing is opened here (a datasource added at
 * runtime is built but not connected): the connection keys are checked for the type, secrets are
 * resolved only when the pool opens.
 */
import type { DatasourceConfig } from '../../config/schema';
import type { SecretManager } from '../../config/secrets';
import type { DatasourceAdapter } from './adapter';
import { validateConnection } from './connection-config';
import { DuckdbAdapter } from './duckdb/duckdb-adapter';
import { MysqlAdapter } from './mysql/mysql-adapter';
import { PostgresAdapter } from './postgres/postgres-adapter';
import { SqliteAdapter } from './sqlite/sqlite-adapter';

export { maskConnection, maskUrl } from './connection-config';

export interface AdapterDeps {
  readonly secrets: SecretManager;
  /** DuckDB only: open the file read-write (statements are still limited to SELECT/EXPLAIN). */
  readonly writable?: boolean;
}

/** Throws DATASOURCE_CONFIG_INVALID naming each wrong key; never connects. */
export function createAdapter(config: DatasourceConfig, deps: AdapterDeps): DatasourceAdapter {
  validateConnection(config);
  switch (config.type) {
    case 'duckdb':
      return new DuckdbAdapter(config, { writable: deps.writable === true });
    case 'sqlite':
      return new SqliteAdapter(config);
    case 'postgres':
      return new PostgresAdapter(config, deps.secrets);
    case 'mysql':
      return new MysqlAdapter(config, deps.secrets);
  }
}
