/**
 * The bench's HTTP client: plain node:http over keep-alive sockets (one per concurrent client),
 * so a run's wall time is the service's and not a connection handshake's.
 */
import { Agent, request } from 'node:http';

export interface Timed<T> {
  readonly status: number;
  readonly body: T;
  /** From sending the request to the last byte of the response (parsing excluded). */
  readonly wallMs: number;
}

export class BenchClient {
  private readonly agent: Agent;

  constructor(
    private readonly baseUrl: string,
    sockets: number,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: sockets });
  }

  post<T>(path: string, body: unknown): Promise<Timed<T>> {
    return this.send<T>('POST', path, JSON.stringify(body));
  }

  get<T>(path: string): Promise<Timed<T>> {
    return this.send<T>('GET', path, null);
  }

  close(): void {
    this.agent.destroy();
  }

  private send<T>(method: string, path: string, payload: string | null): Promise<Timed<T>> {
    const url = new URL(path, this.baseUrl);
    return new Promise((resolve, reject) => {
      const t0 = performance.now();
      const req = request(
        {
          method,
          agent: this.agent,
          hostname: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          headers: payload
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {},
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const wallMs = performance.now() - t0;
            const text = Buffer.concat(chunks).toString('utf8');
            try {
              resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as T, wallMs });
            } catch {
              reject(
                new Error(
                  `${method} ${url.pathname}: HTTP ${res.statusCode ?? '?'} with a body that is not JSON: ${text.slice(0, 200)}`,
                ),
              );
            }
          });
        },
      );
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }
}
