/**
 * A scripted fake model server on 127.0.0.1 (port 0) speaking three real wires, for tests and
 * benchmarks that use the real `openai` and `@anthropic-ai/sdk` clients (and the service's own
 * Ollama client) over real HTTP:
 *
 * - OpenAI chat completions: POST /v1/chat/completions (JSON, tool calls, json_schema / json_object
 *   response formats, SSE streaming with a final usage chunk when `stream_options.include_usage`).
 * - Anthropic messages: POST /v1/messages (JSON, tool_use, SSE streaming events).
 * - Ollama's native chat: POST /api/chat (one JSON object with `stream: false`, else NDJSON lines
 *   ending in `done: true` with `prompt_eval_count` / `eval_count`; tool calls with object
 *   arguments; errors as `{"error": "..."}`), and GET /api/tags (the models in `ollamaModels`) and
 *   GET /api/version, which are kept in `probes`, not in `requests`, and consume no reply.
 *
 * Usage:
 *   const fake = await FakeModelServer.start();
 *   fake.reply({ json: { answer: 42 } }, { fail: 'rate_limit' }, { text: 'not json' });
 *   // openai agents:    base_url: fake.openaiBaseUrl      (http://127.0.0.1:PORT/v1)
 *   // anthropic agents: base_url: fake.anthropicBaseUrl   (http://127.0.0.1:PORT)
 *   // ollama agents:    base_url: fake.ollamaBaseUrl      (http://127.0.0.1:PORT, the server root)
 *   ... fake.requests[0].body.temperature, fake.requests[0].headers['x-team'] ...
 *   await fake.close();
 *
 * Replies are consumed one per request in order (see replies.ts); with the queue empty the server
 * answers 500 "no scripted reply", so a test that makes more calls than it expects fails loudly.
 * `fake.onRequest(fn)` computes a reply from the request instead (used when order is not known).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { DEFAULT_USAGE, renderFailure, type FakeReply, type FakeUsage } from './replies';

export type Wire = 'openai' | 'anthropic' | 'ollama';

export interface RecordedRequest {
  readonly wire: Wire;
  readonly method: string;
  readonly path: string;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: any;
  readonly stream: boolean;
}

export type ReplyFunction = (request: RecordedRequest) => FakeReply | undefined;

export class FakeModelServer {
  /** Every request received, in order. */
  readonly requests: RecordedRequest[] = [];
  /** GET paths of Ollama's model list and version, in order (the reachability probe's). */
  readonly probes: string[] = [];
  /** What GET /api/tags lists. */
  ollamaModels: string[] = ['qwen2.5-coder:3b'];
  /** Model requests whose connection closed before their answer was complete (the client gave up). */
  abandoned = 0;
  private readonly queue: FakeReply[] = [];
  private readonly sockets = new Set<Socket>();
  private handler: ReplyFunction | null = null;
  private seq = 0;

  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly record: boolean,
  ) {}

  /**
   * `record: false` keeps no request (`requests` stays empty): for the e2e bench's oracle, which
   * answers thousands of 15 KB planning requests a pass and never reads them back.
   */
  static async start(options: { record?: boolean } = {}): Promise<FakeModelServer> {
    let fake: FakeModelServer | null = null;
    const server = createServer((req, res) => {
      void fake!.handle(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fake = new FakeModelServer(server, (server.address() as AddressInfo).port, options.record !== false);
    server.on('connection', (s) => {
      fake.sockets.add(s);
      s.on('close', () => fake.sockets.delete(s));
    });
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** base_url for OpenAI-wire agents. */
  get openaiBaseUrl(): string {
    return `${this.url}/v1`;
  }

  /** base_url for Anthropic-wire agents. */
  get anthropicBaseUrl(): string {
    return this.url;
  }

  /** base_url for Ollama agents: the server root, as Ollama documents it. */
  get ollamaBaseUrl(): string {
    return this.url;
  }

  /** Queues replies, consumed one per request. */
  reply(...replies: FakeReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Computes replies from requests; a function returning undefined falls back to the queue. */
  onRequest(fn: ReplyFunction | null): this {
    this.handler = fn;
    return this;
  }

  /** Replies still queued (a test can assert it used them all). */
  get pending(): number {
    return this.queue.length;
  }

  /** Forgets requests, queued replies and the handler. */
  reset(): void {
    this.requests.length = 0;
    this.probes.length = 0;
    this.queue.length = 0;
    this.handler = null;
    this.abandoned = 0;
    this.ollamaModels = ['qwen2.5-coder:3b'];
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.method === 'GET' && (path === '/api/tags' || path === '/api/version')) {
      this.probes.push(path);
      sendJson(
        res,
        200,
        path === '/api/tags'
          ? { models: this.ollamaModels.map((name) => ({ name, model: name, size: 1, digest: 'fake' })) }
          : { version: '0.12.0-fake' },
      );
      return;
    }
    const wire: Wire | null = path.endsWith('/chat/completions')
      ? 'openai'
      : path.endsWith('/messages')
        ? 'anthropic'
        : path === '/api/chat'
          ? 'ollama'
          : null;
    const body = parseJson(raw);
    if (!wire || req.method !== 'POST') {
      sendJson(res, 404, { error: { message: `fake model server: no route ${req.method} ${path}` } });
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [
        k.toLowerCase(),
        Array.isArray(v) ? v.join(', ') : String(v),
      ]),
    );
    const recorded: RecordedRequest = {
      wire,
      method: req.method,
      path,
      headers,
      body,
      // Ollama streams unless told `stream: false`; the other wires only when told `stream: true`.
      stream: wire === 'ollama' ? body?.stream !== false : body?.stream === true,
    };
    res.on('close', () => {
      if (!res.writableFinished) this.abandoned += 1;
    });
    if (this.record) this.requests.push(recorded);
    const reply = this.handler?.(recorded) ?? this.queue.shift();
    const requestedModel = String(body?.model ?? 'fake-model');
    if (!reply) {
      const f = renderFailure(wire, 'server', 'fake model server: no scripted reply for this request');
      sendJson(res, f.status, f.body);
      return;
    }
    if ('hang' in reply) return; // left open until the client gives up or the server closes
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (res.destroyed) return;
    if ('fail' in reply) {
      const f = renderFailure(wire, reply.fail, reply.message, requestedModel);
      // Fast SDK retries: both SDKs honour retry-after-ms.
      sendJson(res, f.status, f.body, { 'retry-after-ms': '1' });
      return;
    }
    if ('status' in reply) {
      sendJson(res, reply.status, reply.body, { 'retry-after-ms': '1', ...(reply.headers ?? {}) });
      return;
    }
    const model = reply.model ?? String(body?.model ?? 'fake-model');
    const usage = reply.usage === null ? null : { ...DEFAULT_USAGE, ...(reply.usage ?? {}) };
    const answer = toAnswer(reply, wire, body);
    this.seq += 1;
    const id = `fake-${this.seq}`;
    if (recorded.stream && reply.streamFault) breakAfterFirstPieces(res, reply.streamFault);
    if (wire === 'ollama') {
      if (recorded.stream) ollamaStream(res, model, answer, usage);
      else sendJson(res, 200, ollamaChunk(model, answer, usage, true));
    } else if (wire === 'openai') {
      if (recorded.stream)
        openaiStream(res, id, model, answer, usage, body?.stream_options?.include_usage === true);
      else sendJson(res, 200, openaiCompletion(id, model, answer, usage));
    } else if (recorded.stream) {
      anthropicStream(res, id, model, answer, usage);
    } else {
      sendJson(res, 200, anthropicMessage(id, model, answer, usage));
    }
  }
}

/** The answer in wire-neutral form. */
interface Answer {
  readonly kind: 'text' | 'tool' | 'refusal';
  readonly text: string;
  readonly toolName: string;
  /** Tool input as an object (Anthropic) when it is one. */
  readonly toolInput: unknown;
}

function toAnswer(reply: FakeReply, wire: Wire, body: any): Answer {
  const toolName: string | undefined =
    wire === 'anthropic' ? body?.tools?.[0]?.name : body?.tools?.[0]?.function?.name;
  if ('refusal' in reply) return { kind: 'refusal', text: reply.refusal, toolName: '', toolInput: null };
  if ('json' in reply) {
    const text = JSON.stringify(reply.json);
    return toolName
      ? { kind: 'tool', text, toolName, toolInput: reply.json }
      : { kind: 'text', text, toolName: '', toolInput: null };
  }
  const text = 'text' in reply ? reply.text : '';
  // On the OpenAI wire a tool call's arguments are a string and may be anything; Anthropic's and
  // Ollama's tool input is always an object, so malformed output there comes back as text.
  if (toolName && wire === 'openai') return { kind: 'tool', text, toolName, toolInput: null };
  return { kind: 'text', text, toolName: '', toolInput: null };
}

function openaiUsage(u: Required<FakeUsage>) {
  return {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.input + u.output,
    prompt_tokens_details: { cached_tokens: u.cached, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: u.reasoning, audio_tokens: 0 },
  };
}

function openaiCompletion(id: string, model: string, a: Answer, usage: Required<FakeUsage> | null) {
  const message =
    a.kind === 'tool'
      ? {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: [
            { id: `call_${id}`, type: 'function', function: { name: a.toolName, arguments: a.text } },
          ],
        }
      : a.kind === 'refusal'
        ? { role: 'assistant', content: null, refusal: a.text }
        : { role: 'assistant', content: a.text, refusal: null };
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    system_fingerprint: 'fp_fake',
    choices: [
      { index: 0, message, logprobs: null, finish_reason: a.kind === 'tool' ? 'tool_calls' : 'stop' },
    ],
    ...(usage ? { usage: openaiUsage(usage) } : {}),
  };
}

function openaiStream(
  res: ServerResponse,
  id: string,
  model: string,
  a: Answer,
  usage: Required<FakeUsage> | null,
  includeUsage: boolean,
): void {
  sseHeaders(res);
  const chunk = (delta: object, finish: string | null = null, extra: object = {}) =>
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra })}\n\n`,
    );
  chunk({ role: 'assistant', content: '' });
  if (a.kind === 'tool') {
    chunk({
      tool_calls: [
        { index: 0, id: `call_${id}`, type: 'function', function: { name: a.toolName, arguments: '' } },
      ],
    });
    for (const piece of pieces(a.text)) chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] });
    chunk({}, 'tool_calls');
  } else if (a.kind === 'refusal') {
    for (const piece of pieces(a.text)) chunk({ refusal: piece });
    chunk({}, 'stop');
  } else {
    for (const piece of pieces(a.text)) chunk({ content: piece });
    chunk({}, 'stop');
  }
  if (includeUsage && usage) {
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices: [], usage: openaiUsage(usage) })}\n\n`,
    );
  }
  res.end('data: [DONE]\n\n');
}

/**
 * One Ollama chat object: the whole answer (`done: true`, with the counts), or one streamed piece.
 * A refusal has no form of its own on this wire: the model just says so.
 */
function ollamaChunk(
  model: string,
  a: Answer,
  usage: Required<FakeUsage> | null,
  done: boolean,
  content = a.kind === 'tool' ? '' : a.text,
) {
  return {
    model,
    created_at: new Date().toISOString(),
    message: {
      role: 'assistant',
      content,
      ...(a.kind === 'tool' && done
        ? { tool_calls: [{ function: { name: a.toolName, arguments: a.toolInput } }] }
        : {}),
    },
    done,
    ...(done
      ? {
          done_reason: 'stop',
          total_duration: 1_000_000,
          load_duration: 1000,
          ...(usage ? { prompt_eval_count: usage.input, eval_count: usage.output } : {}),
        }
      : {}),
  };
}

function ollamaStream(
  res: ServerResponse,
  model: string,
  a: Answer,
  usage: Required<FakeUsage> | null,
): void {
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  const line = (o: object) => res.write(`${JSON.stringify(o)}\n`);
  if (a.kind !== 'tool') for (const piece of pieces(a.text)) line(ollamaChunk(model, a, null, false, piece));
  line(ollamaChunk(model, a, usage, true, ''));
  res.end();
}

function anthropicUsage(u: Required<FakeUsage>) {
  return {
    input_tokens: Math.max(0, u.input - u.cached - u.cacheWrite),
    cache_read_input_tokens: u.cached,
    cache_creation_input_tokens: u.cacheWrite,
    output_tokens: u.output,
  };
}

function anthropicMessage(id: string, model: string, a: Answer, usage: Required<FakeUsage> | null) {
  const content =
    a.kind === 'tool'
      ? [{ type: 'tool_use', id: `toolu_${id}`, name: a.toolName, input: a.toolInput }]
      : a.kind === 'refusal'
        ? []
        : [{ type: 'text', text: a.text }];
  return {
    id: `msg_${id}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: a.kind === 'tool' ? 'tool_use' : a.kind === 'refusal' ? 'refusal' : 'end_turn',
    stop_sequence: null,
    ...(usage ? { usage: anthropicUsage(usage) } : {}),
  };
}

function anthropicStream(
  res: ServerResponse,
  id: string,
  model: string,
  a: Answer,
  usage: Required<FakeUsage> | null,
): void {
  sseHeaders(res);
  const event = (type: string, data: object) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const u = usage ? anthropicUsage(usage) : null;
  event('message_start', {
    message: {
      id: `msg_${id}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      ...(u ? { usage: { ...u, output_tokens: 1 } } : {}),
    },
  });
  if (a.kind === 'tool') {
    event('content_block_start', {
      index: 0,
      content_block: { type: 'tool_use', id: `toolu_${id}`, name: a.toolName, input: {} },
    });
    for (const piece of pieces(a.text))
      event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: piece } });
    event('content_block_stop', { index: 0 });
  } else if (a.kind === 'text') {
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    for (const piece of pieces(a.text))
      event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: piece } });
    event('content_block_stop', { index: 0 });
  }
  const stop = a.kind === 'tool' ? 'tool_use' : a.kind === 'refusal' ? 'refusal' : 'end_turn';
  event('message_delta', {
    delta: { stop_reason: stop, stop_sequence: null },
    ...(u ? { usage: { output_tokens: u.output_tokens } } : {}),
  });
  event('message_stop', {});
  res.end();
}

/**
 * Lets the first three SSE frames through (the opening frames and one piece of the answer), then
 * drops every later write: the stream stalls with its connection open, or is ended cleanly.
 */
function breakAfterFirstPieces(res: ServerResponse, fault: 'stall' | 'cut'): void {
  const write = res.write.bind(res);
  let frames = 0;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (++frames > 3) return true;
    return (write as (c: unknown, ...r: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof res.write;
  const end = res.end.bind(res);
  res.end = (() => {
    if (fault === 'cut') return end();
    return res;
  }) as typeof res.end;
}

/** Splits a text into a few pieces so streaming has more than one delta. */
function pieces(text: string): string[] {
  if (text.length <= 3) return [text];
  const size = Math.ceil(text.length / 3);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function sseHeaders(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function parseJson(raw: string): any {
  try {
    return raw ? JSON.parse(raw) : null;
  } catch {
    return raw;
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
