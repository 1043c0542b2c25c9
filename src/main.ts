/**
 * Start-up: env file and config, engine build and check (refuse to serve when a required
 * datasource fails or none is ready), purge, then serve on HOST:PORT (default 127.0.0.1:8000).
 * Shutdown closes the engine (every pool and client).
 */
import 'reflect-metadata';
import { ConfigError } from './config/config-error';
import { loadConfig } from './config/loader';
import { createApp } from './app.factory';
import { Engine } from './engine/engine';
import { getLogger } from './engine/logging/logger';

const log = getLogger('nl2sql.main');

async function main(): Promise<void> {
  const started = Date.now();
  const loaded = loadConfig();
  log.info(`config: ${loaded.embeddedDefault ? 'embedded default' : loaded.path}`, {
    env_file_variables: loaded.envFileVariables,
  });
  if (loaded.config.api.trust_body_role) {
    log.warn(
      'api.trust_body_role is on: roles are read from the request body; use this for local testing only',
    );
  }
  const engine = Engine.create(loaded.config, { source: loaded.path });
  let app: Awaited<ReturnType<typeof createApp>> | null = null;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info(`shutting down (${signal})`);
    try {
      await app?.close();
    } finally {
      await engine.close();
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await engine.check();
  } catch (err) {
    await engine.close();
    throw err;
  }
  // Retention: once before serving, then every PURGE_INTERVAL_S seconds; a failure is only logged.
  await engine.purge();
  const purgeEvery = Number(process.env.PURGE_INTERVAL_S ?? 86400);
  if (Number.isFinite(purgeEvery) && purgeEvery > 0) {
    setInterval(() => void engine.purge(), purgeEvery * 1000).unref();
  }
  app = await createApp(engine);
  const host = process.env.HOST ?? '127.0.0.1';
  const port = Number(process.env.PORT ?? 8000);
  await app.listen(port, host);
  const bound = (app.getHttpServer().address() as { port: number } | null)?.port ?? port;
  log.info(`serving on http://${host}:${bound} (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`, {
    docs: `http://${host}:${bound}/docs`,
  });
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    log.error(err.message);
  } else if (err instanceof Error && 'code' in err) {
    log.error(`cannot start: ${err.message}`, { error_code: (err as { code: unknown }).code });
  } else {
    log.error('cannot start', { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
  process.exit(1);
});
