/** Plain node:http requests (over TCP or a Unix socket) so tests see exactly what a client sees. */
import { request } from 'node:http';

export interface HttpResult {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  json<T = any>(): T;
}

export function http(
  method: string,
  url: string,
  opts: {
    body?: unknown;
    /** Sent as it is, as JSON by its content type (a malformed body, say), instead of `body`. */
    rawBody?: string;
    headers?: Record<string, string>;
    socketPath?: string | null;
  } = {},
): Promise<HttpResult> {
  const u = new URL(url);
  const payload = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  return new Promise((resolve, reject) => {
    const req = request(
      {
        method,
        ...(opts.socketPath ? { socketPath: opts.socketPath } : { hostname: u.hostname, port: u.port }),
        path: u.pathname + u.search,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...opts.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
        });
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}
