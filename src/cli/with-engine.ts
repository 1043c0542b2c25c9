/**
 * The engine a command works on, and its life: the config found as the service finds it, the
 * engine built as every host builds it (nest-context.ts: start-up checks, the demo database when
 * asked), logs on stderr. `withEngine` runs a command's body on it, reports a failure in one line
 * (exit 1) and closes the engine after, unless the command keeps running (serve, mcp).
 */
import type { DynamicModule, Type } from '@nestjs/common';
import { ConfigError } from '../config/config-error';
import { loadConfig } from '../config/loader';
import { redact } from '../config/redact';
import type { AppConfig } from '../config/defaults';
import { engineHandle, type Engine } from '../create-engine';
import { sendLogsToStderr } from '../engine/logging/logger';
import { engineContext } from '../nest-context';
import { KEEPS_RUNNING, type CommandIo } from './io';

/**
 * Runs `body` on an engine built from the config `env` names. Returns the body's exit code, or 1
 * when the engine cannot be built or the body throws. `beside`: modules the body needs next to
 * the engine (MCP's tools for `nl2sql mcp`).
 */
export async function withEngine(
  env: NodeJS.ProcessEnv,
  io: CommandIo,
  body: (engine: Engine, config: AppConfig) => Promise<number>,
  beside: readonly (Type | DynamicModule)[] = [],
): Promise<number> {
  sendLogsToStderr();
  let engine: Engine;
  let config: AppConfig;
  try {
    const loaded = loadConfig(env);
    config = loaded.config;
    engine = engineHandle(await engineContext(config, { env, source: loaded.path }, beside));
  } catch (err) {
    return reportFailure(io, err);
  }
  let code = 1;
  try {
    code = await body(engine, config);
    return code;
  } catch (err) {
    return reportFailure(io, err);
  } finally {
    if (code !== KEEPS_RUNNING) await engine.close();
  }
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
