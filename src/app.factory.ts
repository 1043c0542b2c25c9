/**
 * Builds the HTTP application around a built engine: CORS, request log, error filter, OpenAPI and
 * docs. Used by main.ts and by the e2e tests, so both serve exactly the same app.
 */
import type { LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { mountDocs, buildOpenApi } from './api/common/openapi';
import { requireJsonBody } from './api/common/json-body.middleware';
import { requestLog } from './api/common/request-log.middleware';
import { AppModule } from './app.module';
import type { Engine } from './engine/engine';
import { getLogger } from './engine/logging/logger';

export async function createApp(engine: Engine): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forEngine(engine), {
    logger: new NestLogBridge(),
    bodyParser: true,
  });
  app.disable('x-powered-by');
  // Express hashes every body for an ETag, POST answers included; no route of this API is
  // conditional, and hashing answers of up to a thousand rows cost about 1% of a run (e2e bench).
  app.set('etag', false);
  app.set('trust proxy', false);
  const origins = [...engine.config.api.cors_origins];
  // No origin configured: no cross-origin access at all and credentials off (spec 1, CORS).
  app.enableCors(
    origins.length ? { origin: origins, credentials: true } : { origin: false, credentials: false },
  );
  app.use(requestLog);
  app.use(requireJsonBody);
  mountDocs(app, buildOpenApi(app));
  return app;
}

/** Nest's own messages go through our logger (redacted, text or JSON). */
class NestLogBridge implements LoggerService {
  private readonly target = getLogger('nl2sql.nest');
  private write(level: 'info' | 'warn' | 'error' | 'debug', message: unknown, context?: unknown) {
    this.target.log(
      level,
      typeof message === 'string' ? message : JSON.stringify(message),
      typeof context === 'string' ? { context } : {},
    );
  }
  log(message: unknown, context?: unknown) {
    // Route mapping lines are noise at info level.
    this.write('debug', message, context);
  }
  error(message: unknown, _trace?: unknown, context?: unknown) {
    this.write('error', message, context);
  }
  warn(message: unknown, context?: unknown) {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: unknown) {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: unknown) {
    this.write('debug', message, context);
  }
}
