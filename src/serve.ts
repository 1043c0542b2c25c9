/**
 * Start-up: env file and config, then the app, whose start-up checks refuse to serve when a
 * required datasource fails or none is ready; then serve on HOST:PORT (default 127.0.0.1:8000).
 * Shutdown (SIGINT, SIGTERM) closes the app, and with it every pool and client. `npm start` and
 * `nl2sql serve` both run this.
 */
import 'reflect-metadata';
import { ConfigError } from './config/config-error';
import { DEFAULT_PURGE_INTERVAL_S } from './config/defaults';
import { loadConfig } from './config/loader';
import { createApp } from './app.factory';
import { getLogger } from './engine/logging/logger';

const log = getLogger('nl2sql.main');

export async function serve(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const started = Date.now();
  const loaded = loadConfig(env);
  log.info(`config: ${loaded.embeddedDefault ? 'embedded default' : loaded.path}`, {
    env_file_variables: loaded.envFileVariables,
  });
  if (loaded.config.api.trust_body_role) {
    log.warn(
      'api.trust_body_role is on: roles are read from the request body; use this for local testing only',
    );
  }
  const app = await createApp(loaded.config, {
    source: loaded.path,
    purgeIntervalS: Number(env.PURGE_INTERVAL_S ?? DEFAULT_PURGE_INTERVAL_S),
  });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info(`shutting down (${signal})`);
    try {
      await app.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  // init runs the engine's start-up checks; a failure has already closed what they opened.
  await app.init();
  const host = env.HOST ?? '127.0.0.1';
  const port = Number(env.PORT ?? 8000);
  await app.listen(port, host);
  const bound = (app.getHttpServer().address() as { port: number } | null)?.port ?? port;
  log.info(`serving on http://${host}:${bound} (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`, {
    docs: `http://${host}:${bound}/docs`,
  });
}

/** Logs why the service cannot start (a config problem as its own message) and exits 1. */
export function failStart(err: unknown): never {
  if (err instanceof ConfigError) {
    log.error(err.message);
  } else if (err instanceof Error && 'code' in err) {
    log.error(`cannot start: ${err.message}`, { error_code: (err as { code: unknown }).code });
  } else {
    log.error('cannot start', { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
  process.exit(1);
}
