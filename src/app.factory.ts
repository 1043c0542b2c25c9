/**
 * Builds the HTTP application: the engine module and the route modules, CORS, request log, error
 * filter, OpenAPI and docs. Used by main.ts and by the e2e tests, so both serve exactly the same
 * app. Nothing is connected until `init()` (or `listen()`), where the engine's start-up checks run.
 */
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { mountDocs, buildOpenApi } from './api/common/openapi';
import { useJsonBodies } from './api/common/json-body.middleware';
import { requestLog } from './api/common/request-log.middleware';
import { EngineMetrics } from './api/metrics/engine-metrics';
import { httpMetrics } from './api/metrics/http-metrics.middleware';
import { AppModule } from './app.module';
import type { AppConfig } from './config/defaults';
import type { EngineOptions } from './engine/engine-config';
import { engineModule, nestOptions } from './nest-context';

export async function createApp(
  config: AppConfig,
  options: EngineOptions = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(engineModule(config, options)),
    // Nest's parsers off: useJsonBodies installs the one JSON parser, with its depth check.
    { ...nestOptions(), bodyParser: false },
  );
  app.disable('x-powered-by');
  // No route of this API is conditional: Express would hash every body for an ETag for nothing.
  app.set('etag', false);
  app.set('trust proxy', false);
  const origins = [...config.api.cors_origins];
  // No origin configured: no cross-origin access at all and credentials off (spec 1, CORS).
  app.enableCors(
    origins.length ? { origin: origins, credentials: true } : { origin: false, credentials: false },
  );
  // Keep-alive sockets outlive a proxy's or client pool's idle time (60 s at most for the common load
  // balancers): with Node's 5 s default, a client reusing a socket the server is closing gets a
  // reset instead of an answer.
  const server = app.getHttpServer();
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  app.use(requestLog);
  app.use(httpMetrics(app.get(EngineMetrics)));
  useJsonBodies(app);
  mountDocs(app, buildOpenApi(app));
  return app;
}
