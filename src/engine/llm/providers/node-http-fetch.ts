/**
 * The SDKs' transport: a `fetch` over node:http/https keep-alive agents. The global fetch (undici)
 * spent about 1 ms of the event loop per model call on the WHATWG machinery (request objects,
 * header lists, body streams) that a JSON call to a model never needs: three calls a run made it
 * the largest single cost of a run (e2e bench profile). The SDKs still build the requests, retry,
 * time out (through the signal) and parse answers; this only moves the bytes.
 *
 * A JSON answer is read whole and handed over in a Response whose `json()`/`text()` read that
 * buffer; a streamed answer (`text/event-stream`) keeps its body as a web stream, read as it
 * arrives. Anything this does not handle (a body that is not a string or bytes, a scheme other
 * than http/https) goes to the global fetch.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

// One pool per scheme for the process, as the global fetch has: sockets to a model server are
// reused across clients and runs. Idle sockets close on their own after a while.
const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 256 });
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 256 });

/**
 * A Response for a body read whole: json(), text() and arrayBuffer() read that buffer directly,
 * and `body` becomes a stream only if something asks for one (handing the bytes to the Response
 * constructor would build a stream for every answer).
 */
function bufferedResponse(bytes: Buffer, init: ResponseInit, url: string): Response {
  const response = new Response(null, init);
  const text = () => bytes.toString('utf8');
  Object.defineProperties(response, {
    url: { value: url },
    body: { get: () => (bytes.length ? new Blob([bytes]).stream() : null) },
    text: { value: () => Promise.resolve(text()) },
    json: { value: () => new Promise((resolve) => resolve(JSON.parse(text()) as unknown)) },
    arrayBuffer: {
      value: () => Promise.resolve(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)),
    },
  });
  return response;
}

export function nodeHttpFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : null;
  const body = init.body;
  const plainBody = body == null || typeof body === 'string' || body instanceof Uint8Array;
  if (!url || !(url.protocol === 'http:' || url.protocol === 'https:') || !plainBody) {
    return fetch(input, init);
  }
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortError(signal.reason));
  const tls = url.protocol === 'https:';
  const send = tls ? httpsRequest : httpRequest;
  return new Promise<Response>((resolve, reject) => {
    const req = send(
      url,
      {
        method: init.method ?? 'GET',
        headers: headerRecord(init.headers),
        agent: tls ? httpsAgent : httpAgent,
      },
      (res) => {
        const head = responseInit(res);
        const type = res.headers['content-type'] ?? '';
        if (type.includes('text/event-stream')) {
          signal?.removeEventListener('abort', onAbort);
          const stream = Readable.toWeb(res) as ReadableStream<Uint8Array>;
          const response = new Response(stream, head);
          Object.defineProperty(response, 'url', { value: url.href });
          // A cancelled run ends the stream: the SDK stops reading and the socket is dropped.
          signal?.addEventListener('abort', () => res.destroy(abortError(signal.reason)), { once: true });
          resolve(response);
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (err) => reject(err));
        res.on('end', () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(bufferedResponse(Buffer.concat(chunks), head, url.href));
        });
      },
    );
    const onAbort = () => req.destroy(abortError(signal?.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err) => {
      signal?.removeEventListener('abort', onAbort);
      reject(signal?.aborted ? abortError(signal.reason) : err);
    });
    req.end(body ?? undefined);
  });
}

/** Spec fetch rejects an aborted call with an AbortError: the SDKs tell timeouts by that name. */
function abortError(reason: unknown): Error {
  return Object.assign(new Error('The operation was aborted'), { name: 'AbortError', cause: reason });
}

function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  if (headers instanceof Headers) headers.forEach((v, k) => (out[k] = v));
  else if (Array.isArray(headers)) for (const [k, v] of headers) out[k!.toLowerCase()] = v!;
  else for (const [k, v] of Object.entries(headers as Record<string, string>)) out[k.toLowerCase()] = v;
  return out;
}

function responseInit(res: IncomingMessage): ResponseInit {
  const headers = new Headers();
  for (const [k, v] of Object.entries(res.headers)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) headers.append(k, item);
    else headers.set(k, v);
  }
  return { status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers };
}
