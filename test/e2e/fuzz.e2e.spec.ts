/**
 * Generated abuse of every route (issue 19): wrong types, huge and deeply nested JSON, invalid
 * UTF-8, prototype-pollution keys, path traversal in ids, absurd paging values, odd headers.
 * Bounded in count and time. The service must answer every request with a documented status (no
 * 5xx but the spec's), stay up and healthy, and never show a planted secret in a response or log.
 */
import { request } from 'node:http';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import winston from 'winston';
import { MAX_JSON_DEPTH } from '../../src/api/common/json-body.middleware';
import { ERROR_CODES } from '../../src/engine/errors';
import { rootLogger } from '../../src/engine/logging/logger';
import { makeSqliteFixture, startApp, type RunningApp } from '../support/app';
import { FakeModelServer } from '../support/fake-model';

jest.setTimeout(120_000);

const MODEL_KEY = 'sk-fuzz-Planted-Secret-0123456789';
const DB_PASSWORD = 'pg-Fuzz-Planted-Secret-987';

let app: RunningApp;
let fake: FakeModelServer;
const lines: string[] = [];
const sink = new winston.transports.Stream({
  stream: new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  }),
});

beforeAll(async () => {
  fake = await FakeModelServer.start();
  // Every model call fails: the fuzz is about the HTTP surface, and a run must still end cleanly.
  fake.onRequest(() => ({ fail: 'server' }));
  rootLogger.add(sink);
  app = await startApp({
    api: { role_header: 'X-Roles' },
    datasources: [
      { id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } },
      {
        id: 'warehouse',
        type: 'postgres',
        connection: {
          host: '127.0.0.1',
          port: 5432,
          user: 'postgres',
          password: DB_PASSWORD,
          database: 'postgres',
        },
      },
    ],
    llm: {
      provider: 'openai_compatible',
      model: 'fake-model',
      base_url: fake.openaiBaseUrl,
      api_key: MODEL_KEY,
      max_retries: 0,
    },
  });
});
afterAll(async () => {
  rootLogger.remove(sink);
  await app?.close();
  await fake?.close();
});

interface Sent {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer | null;
}

function send(req: Sent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const r = request(
      `${app.url}${req.path}`,
      {
        method: req.method,
        headers: { ...req.headers, ...(req.body ? { 'content-length': String(req.body.length) } : {}) },
        timeout: 20_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    r.on('timeout', () => r.destroy(new Error(`no answer to ${req.method} ${req.path}`)));
    r.on('error', reject);
    r.end(req.body ?? undefined);
  });
}

const ids = fc.oneof(
  fc.constantFrom(
    'shop',
    'warehouse',
    '..',
    '../../etc/passwd',
    '%2e%2e%2f%2e%2e%2fetc',
    '__proto__',
    'constructor',
    'a'.repeat(600),
  ),
  fc.string({ maxLength: 40 }).map((s) => encodeURIComponent(s)),
);
const pagingValue = fc.oneof(
  fc.constantFrom('-1', '0', '1e309', 'NaN', '99999999999999999999', '1.5', '', 'abc', '[]', '{}'),
  fc.integer().map(String),
);
const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ maxLength: 30 }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.constantFrom(
        '__proto__',
        'constructor',
        'prototype',
        'natural_language',
        'datasource_id',
        'execute',
        'config',
        'provider',
        'x',
      ),
      tie('value'),
      { maxKeys: 4 },
    ),
  ),
})).value;
const bodies = fc.oneof(
  jsonish.map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
  fc
    .record({
      natural_language: fc.oneof(
        fc.string({ maxLength: 50 }),
        fc.integer(),
        fc.constant(null),
        fc.constant('x'.repeat(5000)),
      ),
      datasource_id: fc.oneof(ids, fc.constant(null), fc.integer()),
      execute: fc.oneof(fc.boolean(), fc.string({ maxLength: 5 })),
    })
    .map((v) => Buffer.from(JSON.stringify(v))),
  fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)), // not UTF-8, not JSON
  fc.constant(Buffer.from('{"a":'.repeat(3000) + '1' + '}'.repeat(3000))), // deeply nested
  fc.constant(Buffer.from(JSON.stringify({ natural_language: 'x', pad: 'y'.repeat(300_000) }))), // large
  fc.constant(Buffer.from('{"__proto__":{"polluted":true},"natural_language":"How many orders?"}')),
);
const roles = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom('analyst', 'admin', '', ' , ', 'admin,analyst', '\u00e9\u00e9'),
);
const contentTypes = fc.constantFrom(
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
  '',
);

const requests: fc.Arbitrary<Sent> = fc
  .tuple(
    fc.constantFrom(
      ['POST', '/api/v1/query'],
      ['POST', '/api/v1/query/stream'],
      ['GET', '/api/v1/query/{id}/results/{id}'],
      ['GET', '/api/v1/query/{id}/results/{id}.csv'],
      ['POST', '/api/v1/datasource'],
      ['GET', '/api/v1/datasource'],
      ['GET', '/api/v1/datasource/{id}'],
      ['DELETE', '/api/v1/datasource/{id}'],
      ['PUT', '/api/v1/settings/llm'],
      ['GET', '/api/v1/llm'],
      ['GET', '/api/v1/llm/{id}'],
      ['POST', '/api/v1/index/{id}'],
      ['GET', '/api/v1/index/status'],
      ['GET', '/health'],
      ['GET', '/ready'],
      ['GET', '/openapi.json'],
      ['PATCH', '/api/v1/query'],
      ['POST', '/api/v1/query/{id}/feedback'],
      ['GET', '/api/v1/feedback'],
      ['GET', '/api/v1/verified-queries'],
      ['POST', '/api/v1/verified-queries'],
      ['DELETE', '/api/v1/verified-queries/{id}'],
      ['GET', '/api/v1/verified-queries/suggestions'],
    ),
    ids,
    ids,
    pagingValue,
    pagingValue,
    bodies,
    roles,
    contentTypes,
  )
  .map(([[method, template], a, b, offset, limit, body, role, type]) => {
    let path = template.replace('{id}', a).replace('{id}', b);
    if (path.includes('/results/'))
      path += `?offset=${encodeURIComponent(offset)}&limit=${encodeURIComponent(limit)}`;
    const headers: Record<string, string> = {};
    if (role !== undefined) headers['X-Roles'] = role;
    const withBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
    if (withBody && type) headers['content-type'] = type;
    return { method, path, headers, body: withBody ? body : null };
  });

/** Server errors the spec documents (a failed index build, a datasource that cannot be added). */
const DOCUMENTED_5XX = new Set([
  'INDEX_BUILD_FAILED',
  'INDEX_UNAVAILABLE',
  'DATASOURCE_ADD_FAILED',
  'DATASOURCE_UNAVAILABLE',
]);

it('answers generated abuse of every route with documented statuses and no secret, and stays healthy', async () => {
  const seen = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(requests, async (req) => {
      const res = await send(req);
      seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
      expect(res.status).toBeGreaterThanOrEqual(200);
      if (res.status >= 400 && res.body.startsWith('{')) {
        // Every error names a code of the closed list.
        const code = (JSON.parse(res.body) as { error_code?: string }).error_code;
        expect(ERROR_CODES).toContain(code);
      }
      if (res.status >= 500) {
        const code = (JSON.parse(res.body) as { error_code?: string }).error_code ?? '';
        // The request is in the message, so a failure says what was sent.
        expect(`${req.method} ${req.path} -> ${res.status} ${code}`).toBe(
          `${req.method} ${req.path} -> ${res.status} ${DOCUMENTED_5XX.has(code) ? code : 'a documented code'}`,
        );
      }
      expect(res.body).not.toContain(MODEL_KEY);
      expect(res.body).not.toContain(DB_PASSWORD);
    }),
    { numRuns: 250, interruptAfterTimeLimit: 60_000, seed: 20261124 },
  );
  // Nothing was polluted, the service is up and answers a plain request.
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  const health = await send({ method: 'GET', path: '/ready', headers: {}, body: null });
  expect(health.status).toBe(200);
  expect([...seen.keys()].some((s) => s === 422)).toBe(true);
  const logged = lines.join('');
  expect(logged).not.toContain(MODEL_KEY);
  expect(logged).not.toContain(DB_PASSWORD);
});

/** Every route that takes a JSON body, with where a deep value goes in a body it would accept. */
const BODY_ROUTES = [
  [
    'POST',
    '/api/v1/query',
    (deep: string) => `{"natural_language":"How many orders?","user_context":${deep}}`,
  ],
  ['POST', '/api/v1/query/stream', (deep: string) => `{"natural_language":"x","user_context":${deep}}`],
  ['POST', '/api/v1/datasource', (deep: string) => `{"config":${deep}}`],
  ['PUT', '/api/v1/settings/llm', (deep: string) => `{"provider":"openai","model":"m","headers":${deep}}`],
  ['POST', '/api/v1/index/shop', (deep: string) => deep],
  ['POST', '/api/v1/index-all', (deep: string) => deep],
  ['POST', '/mcp', (deep: string) => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${deep}}`],
] as const;

/** Objects and arrays nested `levels` deep, in a generated mix, with a leaf of any JSON. */
const deepValue = fc
  .record({
    levels: fc.integer({ min: MAX_JSON_DEPTH + 1, max: 6000 }),
    shapes: fc.array(fc.constantFrom('object', 'array', 'keyed'), { minLength: 1, maxLength: 3 }),
    leaf: fc.constantFrom('1', 'null', '"{[{["', '{}', '[]'),
  })
  .map(({ levels, shapes, leaf }) => {
    let open = '';
    let close = '';
    for (let i = 0; i < levels; i++) {
      const shape = shapes[i % shapes.length];
      open += shape === 'array' ? '[' : shape === 'keyed' ? `{"k${i % 7}":` : '{"a":';
      close = (shape === 'array' ? ']' : '}') + close;
    }
    return open + leaf + close;
  });

it('answers a deeply nested body on every body route with 422 REQUEST_INVALID naming the limit', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...BODY_ROUTES), deepValue, async ([method, path, wrap], deep) => {
      const body = Buffer.from(wrap(deep));
      const res = await send({
        method,
        path,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'X-Roles': 'admin',
        },
        body,
      });
      expect(`${method} ${path} (${body.length} bytes) -> ${res.status}`).toBe(
        `${method} ${path} (${body.length} bytes) -> 422`,
      );
      expect(JSON.parse(res.body)).toEqual({
        error_code: 'REQUEST_INVALID',
        detail: expect.stringContaining(`at most ${MAX_JSON_DEPTH} are accepted`),
      });
    }),
    { numRuns: 60, seed: 20261125 },
  );
});

/** Ids that name no datasource, agent, run or result here. */
const unknownIds = fc
  .oneof(
    fc.constantFrom('nope', 'shop2', 'SHOP', 'a'.repeat(200), '__proto__', 'constructor', 'toString'),
    fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
  )
  .filter((id) => !['shop', 'warehouse', 'default'].includes(id));

const UNKNOWN_ID_ROUTES = [
  ['GET', '/api/v1/datasource/{id}'],
  ['DELETE', '/api/v1/datasource/{id}'],
  ['GET', '/api/v1/llm/{id}'],
  // 500 with NOT_FOUND before issue 23 item 9; the error mapping is fixed on its own branch.
  ['POST', '/api/v1/index/{id}'],
  ['GET', '/api/v1/query/{id}/results/{id}'],
  ['GET', '/api/v1/query/{id}/results/{id}.csv'],
] as const;

it('answers 404 NOT_FOUND for an unknown id on every route that takes one', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...UNKNOWN_ID_ROUTES), unknownIds, async ([method, template], id) => {
      const path = template.replaceAll('{id}', encodeURIComponent(id));
      const res = await send({ method, path, headers: { 'X-Roles': 'admin' }, body: null });
      const code = (JSON.parse(res.body) as { error_code?: string }).error_code;
      expect(`${method} ${path} -> ${res.status} ${code}`).toBe(`${method} ${path} -> 404 NOT_FOUND`);
    }),
    { numRuns: 60, seed: 20261125 },
  );
});
