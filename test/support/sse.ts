/** Reads a Server-Sent Events response with node:http (supertest handles open streams poorly). */
import { request, type ClientRequest } from 'node:http';

export interface SseEvent {
  readonly event: string;
  readonly data: any;
}

export interface SseSession {
  readonly events: SseEvent[];
  readonly status: Promise<number>;
  readonly headers: Promise<Record<string, string | string[] | undefined>>;
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  /** Closes the connection from the client side. */
  close(): void;
  /** Resolves at the first event matching the predicate. */
  waitFor(pred: (e: SseEvent) => boolean): Promise<SseEvent>;
}

export function openSse(url: string, body: unknown, headers: Record<string, string> = {}): SseSession {
  const u = new URL(url);
  const events: SseEvent[] = [];
  const waiters: { pred: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void }[] = [];
  let resolveStatus!: (n: number) => void;
  let resolveHeaders!: (h: Record<string, string | string[] | undefined>) => void;
  let resolveEnded!: () => void;
  const status = new Promise<number>((r) => (resolveStatus = r));
  const hdrs = new Promise<Record<string, string | string[] | undefined>>((r) => (resolveHeaders = r));
  const ended = new Promise<void>((r) => (resolveEnded = r));
  const payload = JSON.stringify(body);
  const req: ClientRequest = request(
    {
      method: 'POST',
      hostname: u.hostname,
      port: u.port,
      path: u.pathname,
      headers: { 'content-type': 'application/json', ...headers },
    },
    (res) => {
      resolveStatus(res.statusCode ?? 0);
      resolveHeaders(res.headers);
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let idx: number;
        while ((idx = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, idx);
          buffer = buffer.slice(idx + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
          const dataLines = [...block.matchAll(/^data: (.*)$/gm)].map((m) => m[1]);
          const raw = dataLines.join('\n');
          let data: unknown = raw;
          try {
            data = JSON.parse(raw);
          } catch {
            /* not JSON: keep the text */
          }
          const e = { event, data };
          events.push(e);
          for (const w of [...waiters]) {
            if (w.pred(e)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve(e);
            }
          }
        }
      });
      res.on('end', () => resolveEnded());
      res.on('close', () => resolveEnded());
    },
  );
  req.on('error', () => resolveEnded());
  req.write(payload);
  req.end();
  return {
    events,
    status,
    headers: hdrs,
    ended,
    close: () => req.destroy(),
    waitFor: (pred) => {
      const found = events.find(pred);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ pred, resolve }));
    },
  };
}
