/**
 * A tiny HTTP server on 127.0.0.1 speaking the embeddings wire (POST /v1/embeddings): each input
 * gets a vector derived from its length, data comes back in reverse order (clients must sort by
 * `index`), usage counts one token per word. A request with the `rejectKey` gets a 401.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  readonly authorization: string | undefined;
  readonly body: { model: string; input: string[]; encoding_format?: string };
}

export interface FakeEmbeddingsServer {
  readonly baseUrl: string;
  readonly requests: SeenRequest[];
  close(): Promise<void>;
}

export async function startFakeEmbeddings(
  options: { rejectKey?: string } = {},
): Promise<FakeEmbeddingsServer> {
  const requests: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as SeenRequest['body'];
      const authorization = req.headers.authorization;
      requests.push({ authorization, body });
      res.setHeader('content-type', 'application/json');
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
        return;
      }
      if (options.rejectKey && authorization === `Bearer ${options.rejectKey}`) {
        res.statusCode = 401;
        res.end(
          JSON.stringify({
            error: {
              message: `Incorrect API key provided: ${options.rejectKey}`,
              type: 'invalid_request_error',
              code: 'invalid_api_key',
            },
          }),
        );
        return;
      }
      const data = body.input.map((text, index) => ({
        object: 'embedding',
        index,
        embedding: [text.length, 1, 0],
      }));
      const tokens = body.input.reduce((n, t) => n + t.split(/\s+/).filter(Boolean).length, 0);
      res.end(
        JSON.stringify({
          object: 'list',
          model: body.model,
          data: data.reverse(),
          usage: { prompt_tokens: tokens, total_tokens: tokens },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
