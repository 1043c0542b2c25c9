/**
 * `/openapi.json` (and `/openapi.yaml`), `/docs` (Swagger UI) and `/redoc`, every asset served from
 * this process: a deployment may have no internet, so no CDN link and no font link.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { Request, Response } from 'express';

export function buildOpenApi(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('NL2SQL query service')
    .setDescription(
      'Turns a natural-language question into a typed query plan, validates it against the schema and the ' +
        "caller's role, compiles it to SQL for the datasource's dialect, runs it read-only and answers. " +
        'Roles come from a trusted proxy header, a static role or (testing only) the request body.',
    )
    .setVersion('1.0.0')
    .build();
  return SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controller: string, method: string) => method,
  });
}

const REDOC_PAGE = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>NL2SQL query service - ReDoc</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><redoc spec-url="/openapi.json"></redoc><script src="/redoc/redoc.standalone.js"></script></body></html>`;

export function mountDocs(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    swaggerOptions: { validatorUrl: null },
    customSiteTitle: 'NL2SQL query service - API docs',
  });
  const redocBundle = join(dirname(require.resolve('redoc/package.json')), 'bundles', 'redoc.standalone.js');
  let bundle: Buffer | null = null;
  const http = app.getHttpAdapter();
  http.get('/redoc', (_req: Request, res: Response) => {
    res.type('html').send(REDOC_PAGE);
  });
  http.get('/redoc/redoc.standalone.js', (_req: Request, res: Response) => {
    bundle ??= readFileSync(redocBundle);
    res.type('application/javascript').setHeader('Cache-Control', 'public, max-age=86400').send(bundle);
  });
}
