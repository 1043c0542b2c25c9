/**
 * `/openapi.json` (and `/openapi.yaml`), `/docs` (Swagger UI) and `/redoc`, every asset served from
 * this process: a deployment may have no internet, so no CDN link and no font link.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { SecurityRequirementObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { Request, Response } from 'express';
import type { AppConfig } from '../../config/defaults';
import { ENGINE_CONFIG } from '../../engine/engine-config';
import { RUN_EVENTS, runEventUnionSchema } from '../query/run-events.dto';
import { ROLE_HEADER_SCHEME } from './roles.guard';

const DESCRIPTION =
  'Turns a natural-language question into a typed query plan, validates it against the schema and the ' +
  "caller's role, compiles it to SQL for the datasource's dialect, runs it read-only and answers.\n\n" +
  'Every failure answers JSON `{detail, error_code}` (schema `ErrorBody`; `error_code` is one of `ErrorCode`), ' +
  'the stream and CSV routes included. Pipeline failures of a question are not HTTP failures: they are HTTP 200 ' +
  'with entries in `errors`.';

const TAGS: [string, string][] = [
  ['query', 'Ask questions and read their saved results'],
  ['datasource', 'List, add and remove datasources'],
  ['llm', 'The models each pipeline step uses'],
  ['indexing', 'The schema index used for routing and planning'],
  ['health', 'Liveness and readiness'],
];

/** The document for this app and its role source (the security scheme follows `api`). */
export function buildOpenApi(app: INestApplication): OpenAPIObject {
  const api = app.get<AppConfig>(ENGINE_CONFIG, { strict: false }).api;
  const builder = new DocumentBuilder()
    .setTitle('NL2SQL query service')
    .setDescription(`${DESCRIPTION}\n\n**Roles on this instance:** ${describeRoleSource(api)}`)
    .setVersion('1.0.0')
    .setLicense('Apache-2.0', 'https://www.apache.org/licenses/LICENSE-2.0')
    .addServer('/', 'This server');
  for (const [name, description] of TAGS) builder.addTag(name, description);
  if (api.role_header) {
    builder.addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: api.role_header,
        description:
          "The caller's roles, comma-separated (e.g. `analyst` or `admin`), as the trusted proxy in front of the " +
          'service sets them. Admin routes need a role of `policies.admin_roles`.',
      },
      ROLE_HEADER_SCHEME,
    );
  }
  const document = SwaggerModule.createDocument(app, builder.build(), {
    operationIdFactory: (_controller: string, method: string) => method,
    extraModels: Object.values(RUN_EVENTS),
  });
  document.components!.schemas!.RunEvent = runEventUnionSchema();
  setSecurity(document, api);
  return document;
}

function describeRoleSource(api: AppConfig['api']): string {
  if (api.role_header)
    return (
      `the \`${api.role_header}\` header carries the caller's roles (security scheme \`${ROLE_HEADER_SCHEME}\`; ` +
      'in Swagger UI, **Authorize**).' +
      (api.trust_body_role ? ' Without it, `user_context.roles` of the body is read (testing only).' : '')
    );
  if (api.role) return `every request has the static role \`${api.role}\`; nothing to send.`;
  if (api.trust_body_role) return '`user_context.roles` of the request body (testing only).';
  return 'no role source is configured: routes that need a role answer 401, admin routes answer loopback clients only.';
}

/**
 * Routes marked with the role-header scheme keep it only when `api.role_header` is the role source;
 * every other operation says explicitly that it needs no credential (`security: []`).
 */
function setSecurity(document: OpenAPIObject, api: AppConfig['api']): void {
  const needsHeader = (req: SecurityRequirementObject) => ROLE_HEADER_SCHEME in req;
  for (const path of Object.values(document.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const op = path[method];
      if (!op) continue;
      const wantsRole = (op.security ?? []).some(needsHeader);
      if (!wantsRole || !api.role_header) op.security = [];
      else
        op.security = api.trust_body_role
          ? [{ [ROLE_HEADER_SCHEME]: [] }, {}]
          : [{ [ROLE_HEADER_SCHEME]: [] }];
    }
  }
}

const REDOC_PAGE = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>NL2SQL query service - ReDoc</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><redoc spec-url="/openapi.json"></redoc><script src="/redoc/redoc.standalone.js"></script></body></html>`;

export function mountDocs(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    swaggerOptions: { validatorUrl: null, persistAuthorization: true },
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
