/**
 * The engine's configuration as a Nest injection token, and what a caller may add when building the
 * engine module. The config is a plain parsed object (`AppConfig`), so it needs a token of its own.
 */
import type { AppConfig } from '../config/defaults';
import type { SecretManager } from '../config/secrets';
import type { DatasourcePreparer } from './datasources/preparer';

export const ENGINE_CONFIG = Symbol('nl2sql.engine-config');

export type EngineConfig = AppConfig;

export interface EngineOptions {
  /** Secret sources beyond env and file (a vault client...). */
  readonly secrets?: SecretManager;
  readonly env?: NodeJS.ProcessEnv;
  /** Where the config came from, for the llm section's audit trail. */
  readonly source?: string;
  /** Steps run on the datasources' configs before they are first checked (e.g. building the demo database). */
  readonly preparers?: readonly DatasourcePreparer[];
  /** Seconds between retention purges; 0 or less: only the purge at start-up. Default 86400. */
  readonly purgeIntervalS?: number;
}
