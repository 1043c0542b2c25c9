/**
 * Issue 23 item 4 (HTTP): a JSON body nested a few thousand levels deep (26 KB, well under the body
 * limit) overflowed the stack in the DTO transform and came back as HTTP 500. Every route that takes
 * a body now refuses nesting past MAX_JSON_DEPTH with a 422 naming the limit, before anything walks
 * the body; a body at the limit, and brackets inside strings, are not refused for their depth.
 */
import { request } from 'node:http';
import { MAX_JSON_DEPTH } from '../../src/api/common/json-body.middleware';
import { makeSqliteFixture, startApp, type RunningApp } from '../support/app';
import { http } from '../support/http';

let app: RunningApp;
beforeAll(async () => {
  app = await startApp({
    api: { role_header: 'X-Roles' },
    datasources: [{ id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } }],
  });
});
afterAll(() => app.close());

const nestedObject = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const nestedArray = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

/** Every route with a JSON body, each with the deep value where that route reads something. */
const BODY_ROUTES: readonly (readonly [string, string, (deep: string) => string])[] = [
  ['POST', '/api/v1/query', (deep) => `{"natural_language":"How many orders?","user_context":${deep}}`],
  [
    'POST',
    '/api/v1/query/stream',
    (deep) => `{"natural_language":"How many orders?","user_context":${deep}}`,
  ],
  ['POST', '/api/v1/datasource', (deep) => `{"config":${deep}}`],
  ['PUT', '/api/v1/settings/llm', (deep) => `{"provider":"openai","model":"m","agents":${deep}}`],
  ['POST', '/mcp', (deep) => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${deep}}`],
  ['POST', '/api/v1/index/shop', (deep) => deep],
  ['POST', '/api/v1/index-all', (deep) => deep],
];

const send = (method: string, path: string, rawBody: string, headers: Record<string, string> = {}) =>
  http(method, `${app.url}${path}`, {
    rawBody,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'X-Roles': 'admin',
      ...headers,
    },
  });

describe('deeply nested JSON bodies', () => {
  it.each(BODY_ROUTES)(
    '%s %s: 3,000 levels is a 422 naming the limit, not a 500',
    async (method, path, body) => {
      for (const deep of [nestedObject(3000), nestedArray(3000)]) {
        const raw = body(deep);
        expect(raw.length).toBeLessThan(100_000); // under the body limit: the depth is what is refused
        const res = await send(method, path, raw);
        expect(res.status).toBe(422);
        expect(res.json()).toEqual({
          error_code: 'REQUEST_INVALID',
          detail: expect.stringContaining(`at most ${MAX_JSON_DEPTH} are accepted`),
        });
      }
    },
  );

  it('lets a body at the limit through to the route', async () => {
    // The query body itself is one level; its user_context (an object, as the DTO wants) the rest.
    const res = await send(
      'POST',
      '/api/v1/query',
      `{"natural_language":"How many orders?","execute":false,"user_context":${nestedObject(MAX_JSON_DEPTH - 1)}}`,
      { 'X-Roles': 'analyst' },
    );
    expect(res.status).toBe(200);
    const over = await send(
      'POST',
      '/api/v1/query',
      `{"natural_language":"How many orders?","execute":false,"user_context":${nestedObject(MAX_JSON_DEPTH)}}`,
      { 'X-Roles': 'analyst' },
    );
    expect(over.status).toBe(422);
    expect(over.json().detail).toContain(`${MAX_JSON_DEPTH + 1} levels deep`);
  });

  it('does not count brackets inside strings, escaped quotes included', async () => {
    const question = `${'{['.repeat(1000)} \\" ${'[{'.repeat(100)}?`;
    const res = await send('POST', '/api/v1/query', `{"natural_language":"${question}","execute":false}`, {
      'X-Roles': 'analyst',
    });
    expect(res.status).toBe(200);
  });

  it('scans a UTF-16 body after decoding it, and refuses a charset it cannot scan', async () => {
    const utf16 = (text: string) => Buffer.from(text, 'utf16le');
    const typed = (charset: string) => ({ 'content-type': `application/json; charset=${charset}` });
    const deep = await sendBytes(
      '/api/v1/query',
      utf16(`{"natural_language":"x","user_context":${nestedObject(3000)}}`),
      typed('utf-16le'),
    );
    expect(deep.status).toBe(422);
    expect(deep.body).toContain(`at most ${MAX_JSON_DEPTH} are accepted`);
    const shallow = await sendBytes(
      '/api/v1/query',
      utf16('{"natural_language":"How many orders?","execute":false}'),
      typed('utf-16le'),
    );
    expect(shallow.status).toBe(200);
    // In UTF-7 a `{` need not be the byte 0x7B, so a byte scan could be fooled: refused instead.
    const utf7 = await sendBytes('/api/v1/query', Buffer.from('{"natural_language":"x"}'), typed('utf-7'));
    expect(utf7.status).toBe(415);
    expect(JSON.parse(utf7.body).error_code).toBe('REQUEST_INVALID');
  });
});

function sendBytes(
  path: string,
  body: Buffer,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${app.url}${path}`,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(body.length), 'X-Roles': 'analyst' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
