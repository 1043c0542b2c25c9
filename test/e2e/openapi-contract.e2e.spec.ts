/**
 * The OpenAPI document is the contract client SDKs are generated from: it is kept in the repo
 * (docs/openapi.json) so that any change to it shows in review. After an intended change:
 *   UPDATE_OPENAPI=1 npx jest test/e2e/openapi-contract
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeSqliteFixture, startApp, type RunningApp } from '../support/app';
import { http } from '../support/http';

const CONTRACT = join(__dirname, '..', '..', 'docs', 'openapi.json');

let app: RunningApp;
beforeAll(async () => {
  app = await startApp({
    datasources: [{ id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } }],
  });
});
afterAll(() => app.close());

it('serves exactly the committed OpenAPI document', async () => {
  const served = (await http('GET', `${app.url}/openapi.json`)).json();
  const text = JSON.stringify(served, null, 2) + '\n';
  if (process.env.UPDATE_OPENAPI === '1') {
    mkdirSync(dirname(CONTRACT), { recursive: true });
    writeFileSync(CONTRACT, text);
  }
  // A missing snapshot fails: writing it here would let any document pass.
  if (!existsSync(CONTRACT))
    throw new Error(`${CONTRACT} is missing: run UPDATE_OPENAPI=1 npx jest test/e2e/openapi-contract`);
  expect(served).toEqual(JSON.parse(readFileSync(CONTRACT, 'utf8')));
});

it('documents every route of the spec with its methods', async () => {
  const doc = (await http('GET', `${app.url}/openapi.json`)).json();
  const ops = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
    .flatMap(([p, m]) => Object.keys(m).map((verb) => `${verb.toUpperCase()} ${p}`))
    .sort();
  expect(ops).toEqual(
    [
      'POST /api/v1/query',
      'POST /api/v1/query/stream',
      'GET /api/v1/query/{request_id}/results/{result_id}',
      'GET /api/v1/query/{request_id}/results/{result_id}.csv',
      'POST /api/v1/datasource',
      'GET /api/v1/datasource',
      'GET /api/v1/datasource/{datasource_id}',
      'DELETE /api/v1/datasource/{datasource_id}',
      'PUT /api/v1/settings/llm',
      'GET /api/v1/llm',
      'GET /api/v1/llm/{agent}',
      'POST /api/v1/index/{datasource_id}',
      'POST /api/v1/index-all',
      'DELETE /api/v1/index',
      'GET /api/v1/index/status',
      'GET /health',
      'GET /ready',
    ].sort(),
  );
  // Request and response schemas are there for the main route.
  const query = doc.paths['/api/v1/query'].post;
  expect(query.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/QueryRequest');
  expect(query.responses['200'].content['application/json'].schema.$ref).toBe(
    '#/components/schemas/QueryResponseDto',
  );
  expect(doc.components.schemas.QueryRequest.required).toEqual(['natural_language']);
});

it('resolves every $ref of the document (a missing schema breaks every generated client)', async () => {
  const doc = (await http('GET', `${app.url}/openapi.json`)).json();
  const refs: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') refs.push(v);
      else visit(v);
    }
  };
  visit(doc);
  expect(refs.length).toBeGreaterThan(10);
  const missing = refs.filter((ref) => {
    const path = ref.replace(/^#\//, '').split('/');
    let node: unknown = doc;
    for (const key of path) node = (node as Record<string, unknown> | undefined)?.[key];
    return node === undefined;
  });
  expect([...new Set(missing)]).toEqual([]);
});
