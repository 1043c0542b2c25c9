/**
 * The OpenAPI document is the contract client SDKs are generated from: it is kept in the repo
 * (docs/openapi.json) so that any change to it shows in review. After an intended change:
 *   npm run openapi:write
 */
import { existsSync, readFileSync } from 'node:fs';
import { ERROR_CODES } from '../../src/engine/errors';
import { DEMO_DATASOURCE } from '../../src/demo/demo-datasource';
import { makeSqliteFixture, startApp, type RunningApp } from '../support/app';
import { http } from '../support/http';
import { SNAPSHOT_API, SNAPSHOT_PATH } from '../support/openapi-document';

let app: RunningApp;
let doc: any;
beforeAll(async () => {
  app = await startApp({
    api: SNAPSHOT_API,
    datasources: [{ id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } }],
  });
  doc = (await http('GET', `${app.url}/openapi.json`)).json();
});
afterAll(() => app.close());

it('serves exactly the committed OpenAPI document', () => {
  // A missing snapshot fails: writing it here would let any document pass.
  if (!existsSync(SNAPSHOT_PATH)) throw new Error(`${SNAPSHOT_PATH} is missing: run npm run openapi:write`);
  expect(doc).toEqual(JSON.parse(readFileSync(SNAPSHOT_PATH, 'utf8')));
});

it('documents every route of the spec with its methods, each with a summary and a description', () => {
  const ops = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([p, m]) =>
    Object.entries(m).map(([verb, op]) => ({ name: `${verb.toUpperCase()} ${p}`, op })),
  );
  expect(ops.map((o) => o.name).sort()).toEqual(
    [
      'POST /api/v1/query',
      'POST /api/v1/query/stream',
      'GET /api/v1/query/{request_id}/results/{result_id}',
      'GET /api/v1/query/{request_id}/results/{result_id}.csv',
      'GET /api/v1/query/{request_id}/results/{result_id}.arrow',
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
      'POST /api/v1/query/{request_id}/feedback',
      'GET /api/v1/feedback',
      'GET /api/v1/verified-queries',
      'POST /api/v1/verified-queries',
      'DELETE /api/v1/verified-queries/{id}',
      'GET /api/v1/verified-queries/suggestions',
    ].sort(),
  );
  for (const { op } of ops) {
    expect(op.summary).toEqual(expect.stringMatching(/\S/));
    expect(op.description).toEqual(expect.stringMatching(/\S/));
  }
  const query = doc.paths['/api/v1/query'].post;
  expect(query.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/QueryRequest');
  expect(query.responses['200'].content['application/json'].schema.$ref).toBe(
    '#/components/schemas/QueryResponseDto',
  );
});

it('types error_code as the closed list of codes, on every error response, always as JSON', () => {
  expect(doc.components.schemas.ErrorCode).toEqual({ type: 'string', enum: [...ERROR_CODES] });
  expect(doc.components.schemas.ErrorBody.required).toEqual(['detail', 'error_code']);
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [verb, op] of Object.entries(methods)) {
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        if (Number(status) < 400 || path === '/ready') continue;
        expect({ at: `${verb} ${path} ${status}`, content: response.content }).toEqual({
          at: `${verb} ${path} ${status}`,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
        });
      }
    }
  }
  // The stream, the CSV and the Arrow route answer their successes in their own type only.
  expect(Object.keys(doc.paths['/api/v1/query/stream'].post.responses['200'].content)).toEqual([
    'text/event-stream',
  ]);
  expect(
    Object.keys(doc.paths['/api/v1/query/{request_id}/results/{result_id}.csv'].get.responses['200'].content),
  ).toEqual(['text/csv']);
  expect(
    Object.keys(
      doc.paths['/api/v1/query/{request_id}/results/{result_id}.arrow'].get.responses['200'].content,
    ),
  ).toEqual(['application/vnd.apache.arrow.stream']);
});

it('marks required exactly what is always there: a default does not make `execute` required', () => {
  expect(doc.components.schemas.QueryRequest.required).toEqual(['natural_language']);
  expect(doc.components.schemas.QueryRequest.properties.execute.default).toBeUndefined();
  const response = doc.components.schemas.QueryResponseDto;
  expect([...response.required].sort()).toEqual(Object.keys(response.properties).sort());
  const sub = doc.components.schemas.SubQueryResponseDto;
  expect([...sub.required].sort()).toEqual(Object.keys(sub.properties).sort());
});

it('describes the stream as a union of events keyed by name, one per event of the spec', () => {
  const union = doc.components.schemas.RunEvent;
  expect(union.discriminator.propertyName).toBe('name');
  expect(Object.keys(union.discriminator.mapping).sort()).toEqual(
    [
      'run.started',
      'node.started',
      'node.finished',
      'result.manifest',
      'answer.delta',
      'sanity.flagged',
      'run.limit_reached',
      'run.finished',
      'run.failed',
    ].sort(),
  );
  for (const [name, ref] of Object.entries(union.discriminator.mapping as Record<string, string>)) {
    const event = doc.components.schemas[ref.split('/').pop()!];
    expect(event.properties.name.enum).toEqual([name]);
    expect(event.required).toEqual(['name', 'at', 'trace_id', 'tenant_id', 'data']);
  }
  const finished = doc.components.schemas.RunFinishedData.properties.result;
  expect(finished.allOf ?? [finished]).toContainEqual({ $ref: '#/components/schemas/QueryResponseDto' });
});

it("gives examples that work on the embedded default's demo datasource", () => {
  const examples = doc.paths['/api/v1/query'].post.requestBody.content['application/json'].examples;
  for (const { value } of Object.values(examples as Record<string, { value: any }>)) {
    expect(DEMO_DATASOURCE.sample_questions).toContain(value.natural_language);
    if (value.datasource_id !== undefined) expect(value.datasource_id).toBe(DEMO_DATASOURCE.id);
  }
  expect(doc.components.schemas.QueryRequest.properties.datasource_id.example).toBe(DEMO_DATASOURCE.id);
});

it('lets Swagger UI send the role header: an apiKey scheme on the routes that need a role', () => {
  expect(doc.components.securitySchemes).toEqual({
    role_header: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Roles' }),
  });
  expect(doc.paths['/api/v1/query'].post.security).toEqual([{ role_header: [] }]);
  expect(doc.paths['/api/v1/datasource'].post.security).toEqual([{ role_header: [] }]);
  expect(doc.paths['/api/v1/datasource'].get.security).toEqual([]);
  expect(doc.paths['/health'].get.security).toEqual([]);
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
