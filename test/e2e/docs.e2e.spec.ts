/** /openapi.json is an OpenAPI 3 document listing the routes; /docs and /redoc load with local assets only. */
import { http } from '../support/http';
import { makeSqliteFixture, startApp, type RunningApp } from '../support/app';

let app: RunningApp;
beforeAll(async () => {
  app = await startApp({
    datasources: [{ id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } }],
  });
});
afterAll(() => app.close());

/** Every src/href of a page: each must be a path on this server, never another host. */
function assetRefs(html: string): string[] {
  return [...html.matchAll(/\b(?:src|href)\s*=\s*["']([^"']+)["']/g)].map((m) => m[1] ?? '');
}

describe('OpenAPI document', () => {
  it('is OpenAPI 3 and lists the routes with their methods', async () => {
    const res = await http('GET', `${app.url}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info.title).toBeTruthy();
    const ops = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, m]) =>
      Object.keys(m).map((verb) => `${verb.toUpperCase()} ${p}`),
    );
    expect(ops).toEqual(
      expect.arrayContaining([
        'GET /health',
        'GET /ready',
        'POST /api/v1/datasource',
        'GET /api/v1/datasource',
        'GET /api/v1/datasource/{datasource_id}',
        'DELETE /api/v1/datasource/{datasource_id}',
      ]),
    );
    // Response schemas are present, e.g. the listed datasource entry with its masked connection.
    expect(Object.keys(doc.components.schemas.ListedDatasourceDto.properties).sort()).toEqual([
      'capabilities',
      'comments',
      'connection',
      'description',
      'id',
      'reason',
      'status',
      'type',
    ]);
    // The spec's fields are required; `comments` (the databases' own, issue 29) is an optional extension.
    expect(doc.components.schemas.ListedDatasourceDto.required).not.toContain('comments');
    // Operation ids are the controller method names (stable names for generated SDKs).
    expect(doc.paths['/api/v1/datasource'].get.operationId).toBe('listDatasources');
  });
});

describe.each(['/docs', '/redoc'])('%s', (page) => {
  it('loads, and every asset it references is served by this process', async () => {
    const res = await http('GET', `${app.url}${page}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    const refs = assetRefs(res.text);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref).not.toMatch(/^(https?:)?\/\//);
      // Resolved as a browser would, against the page's own URL.
      const asset = await http('GET', new URL(ref, `${app.url}${page}`).toString());
      expect({ ref, status: asset.status }).toEqual({ ref, status: 200 });
    }
  });
});

describe('the Swagger UI initialiser and the ReDoc bundle', () => {
  it('point at the local /openapi.json and reference no CDN', async () => {
    const init = await http('GET', `${app.url}/docs/swagger-ui-init.js`);
    expect(init.status).toBe(200);
    expect(init.text).not.toMatch(
      /https?:\/\/(?!127\.0\.0\.1|localhost)[a-z0-9.-]+\.[a-z]{2,}\/[^"'\s]*\.(js|css|json)/i,
    );
    const redoc = await http('GET', `${app.url}/redoc`);
    expect(redoc.text).toContain('spec-url="/openapi.json"');
    expect(redoc.text).not.toMatch(/fonts\.googleapis|cdn\./);
  });
});
