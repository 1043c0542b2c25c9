/**
 * The SDKs' transport (node-http-fetch.ts) against a real HTTP server on 127.0.0.1: what the SDKs
 * read of a Response (status, headers, url, json/text, a streamed body) and how a call ends when
 * its signal aborts or nothing listens.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeHttpFetch } from '../../../src/engine/llm/providers/node-http-fetch';

let server: Server;
let base: string;
/** The stream route keeps its response here so a test decides when each piece goes. */
let held: ServerResponse | null = null;
const seen: { method: string; url: string; headers: Record<string, unknown>; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (req.url === '/json') {
        res.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'req_1' });
        res.end(JSON.stringify({ echo: body ? (JSON.parse(body) as unknown) : null }));
      } else if (req.url === '/empty') {
        res.writeHead(204).end();
      } else if (req.url === '/stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: one\n\n');
        held = res;
      } else if (req.url === '/bad') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{not json');
      } else {
        res.writeHead(404).end('no such route');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  held?.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen.length = 0;
});

test('a JSON answer: status, headers, url, json() and text() from the bytes read', async () => {
  const res = await nodeHttpFetch(`${base}/json`, {
    method: 'POST',
    headers: new Headers({ 'Content-Type': 'application/json', Authorization: 'Bearer k' }),
    body: JSON.stringify({ a: 1 }),
  });
  expect(res.status).toBe(201);
  expect(res.ok).toBe(true);
  expect(res.url).toBe(`${base}/json`);
  expect(res.headers.get('x-request-id')).toBe('req_1');
  expect(await res.json()).toEqual({ echo: { a: 1 } });
  expect(await res.text()).toBe('{"echo":{"a":1}}');
  expect(seen[0]).toMatchObject({ method: 'POST', body: '{"a":1}' });
  expect(seen[0]?.headers).toMatchObject({ authorization: 'Bearer k', 'content-type': 'application/json' });
});

test('headers given as a record or as pairs arrive too', async () => {
  await nodeHttpFetch(`${base}/json`, { headers: { 'X-One': '1' } });
  await nodeHttpFetch(`${base}/json`, { headers: [['X-Two', '2']] });
  expect(seen[0]?.headers['x-one']).toBe('1');
  expect(seen[1]?.headers['x-two']).toBe('2');
});

test('an answer with no body has a null body; an error status is not ok and its text is readable', async () => {
  const empty = await nodeHttpFetch(`${base}/empty`);
  expect(empty.status).toBe(204);
  expect(empty.body).toBeNull();
  const missing = await nodeHttpFetch(`${base}/nope`);
  expect(missing.ok).toBe(false);
  expect(missing.status).toBe(404);
  expect(await missing.text()).toBe('no such route');
  const body = (await nodeHttpFetch(`${base}/json`)).body;
  expect(body).not.toBeNull();
});

test('a body that is not JSON rejects json() instead of throwing', async () => {
  const res = await nodeHttpFetch(`${base}/bad`);
  await expect(res.json()).rejects.toThrow(SyntaxError);
});

test('an event stream is read as it arrives, before the server has finished', async () => {
  const res = await nodeHttpFetch(`${base}/stream`);
  const reader = res.body!.getReader();
  const first = await reader.read();
  expect(Buffer.from(first.value).toString('utf8')).toBe('data: one\n\n');
  held!.end('data: two\n\n');
  held = null;
  let rest = '';
  for (let r = await reader.read(); !r.done; r = await reader.read()) rest += Buffer.from(r.value).toString();
  expect(rest).toBe('data: two\n\n');
});

test('aborting ends a call with an AbortError, before the answer and while a stream is read', async () => {
  const before = new AbortController();
  before.abort(new Error('stop'));
  await expect(nodeHttpFetch(`${base}/json`, { signal: before.signal })).rejects.toMatchObject({
    name: 'AbortError',
  });

  const during = new AbortController();
  const res = await nodeHttpFetch(`${base}/stream`, { signal: during.signal });
  const reader = res.body!.getReader();
  await reader.read();
  during.abort(new Error('client went away'));
  await expect(reader.read()).rejects.toBeDefined();
  held = null;
});

test('nothing listening: the connection error reaches the caller', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  await expect(nodeHttpFetch(`http://127.0.0.1:${port}/json`)).rejects.toMatchObject({
    code: 'ECONNREFUSED',
  });
});
