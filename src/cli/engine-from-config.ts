/**
 * The engine a command works on: the config found as the service finds it, built like the server
 * builds it (start-up checks, the demo database when asked), with logs on stderr.
 */
import { ConfigError } from '../config/config-error';
import { redact } from '../config/redact';
import { loadConfig } from '../config/loader';
import type { AppConfig } from '../config/defaults';
import { engineHandle, engineModule, type Engine } from '../create-engine';
import { NestFactory } from '@nestjs/core';
import { NestLogBridge } from '../engine/logging/nest-log-bridge';
import type { CommandIo } from './io';

export interface LoadedEngine {
  readonly engine: Engine;
  readonly config: AppConfig;
}

export async function engineFromConfig(env: NodeJS.ProcessEnv): Promise<LoadedEngine> {
  const loaded = loadConfig(env);
  const context = await NestFactory.createApplicationContext(
    engineModule(loaded.config, { env, source: loaded.path }),
    {
      logger: new NestLogBridge(),
      abortOnError: false,
    },
  );
  return { engine: engineHandle(context), config: loaded.config };
}

/** The roles a command runs with: `--role`, else the config's static role, else none. */
export function commandRoles(roles: readonly string[] | null, config: AppConfig): string[] {
  if (roles?.length) return [...roles];
  return config.api.role ? [config.api.role] : [];
}

/** A failure a command reports in one line: a config problem as the service states it at start-up. */
export function failureMessage(err: unknown): string {
  if (err instanceof ConfigError) return err.message;
  const code = (err as { code?: unknown })?.code;
  const message = err instanceof Error ? err.message : String(err);
  return typeof code === 'string' ? `${code}: ${message}` : message;
}

export function reportFailure(io: CommandIo, err: unknown): number {
  // The one line a command prints for a failure leaves the process redacted, as responses do.
  io.err(`nl2sql: ${redact(failureMessage(err))}`);
  return 1;
}
