/**
 * Ollama's native chat API (`POST <root>/api/chat`), the default wire of the `ollama` preset. It is
 * what makes a small local model usable for structured steps: the answer's JSON Schema goes in
 * `format` and the server decodes under it (constrained decoding), so the model cannot answer
 * off-schema; `options.num_ctx` is sized per request from the prompt (context-size.ts), so a long
 * prompt is never cut silently; `keep_alive` keeps the model loaded between questions.
 *
 * Structured calls ask with `stream: false` and read one JSON object; a call given `onDelta` (the
 * answer step) streams NDJSON, one object per line, the last with `done: true` and the token
 * counts. Errors are `{"error": "..."}` with an HTTP status, or, once a stream has begun, one such
 * line (the status stays 200); both end in the same PROVIDER_* mapping as the other wires.
 *
 * Written on `fetch` rather than the `ollama` package: that client cannot cancel a request that
 * is not streamed, and a run that is cancelled must close its model request.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { LlmError } from '../../errors';
import type { TokenUsage } from '../../usage';
import { SEED } from '../openai-wire';
import {
  PLACEHOLDER_API_KEY,
  type JsonSchema,
  type ModelRequest,
  type ModelResponse,
  type ResolvedAgent,
} from '../provider';
import { WireClient } from '../wire-client';
import { contextFor, DEFAULT_ANSWER_ROOM, estimatePromptTokens } from './context-size';
import { DEFAULT_KEEP_ALIVE, DEFAULT_NUM_CTX_MAX, ollamaRoot, OLLAMA_ROOT_URL } from './settings';

/** Retries of a failed attempt when the agent sets no max_retries (the `openai` SDK's default too). */
export const DEFAULT_MAX_RETRIES = 2;
/**
 * An unstreamed call's limit when the agent sets no timeout_s (the `openai` SDK's default per
 * attempt); a streamed one has the stream budget of wire-client.ts, and timeout_s replaces both.
 */
export const DEFAULT_UNSTREAMED_TIMEOUT_MS = 10 * 60_000;
/**
 * A schema up to this size is also written into the system prompt: `format` constrains the
 * tokens but the model never sees it, and Ollama advises grounding the answer with the schema in
 * the prompt. A larger one (the plan language) is described in its step's prompt already, and
 * would take a small model's context for little.
 */
export const SCHEMA_IN_PROMPT_MAX_CHARS = 4000;

interface OllamaMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/** The request body, without `stream` (set per call). */
export interface OllamaChatBody {
  readonly model: string;
  readonly messages: OllamaMessage[];
  readonly format?: JsonSchema | 'json';
  readonly tools?: {
    type: 'function';
    function: { name: string; description: string; parameters: JsonSchema };
  }[];
  readonly options: {
    num_ctx: number;
    seed: number;
    temperature?: number;
    num_predict?: number;
  };
  readonly keep_alive?: string | number;
}

/** One object of the answer (the whole answer unstreamed, or one line of a stream). */
interface OllamaChunk {
  readonly model?: string;
  readonly message?: {
    readonly content?: string;
    readonly tool_calls?: { readonly function?: { readonly arguments?: unknown } }[];
  };
  readonly done?: boolean;
  readonly done_reason?: string;
  readonly prompt_eval_count?: number;
  readonly eval_count?: number;
  readonly error?: string;
}

/** An HTTP error answer, shaped as the SDKs' errors are (`status`, `error` body) for error-mapping.ts. */
class OllamaHttpError extends Error {
  override readonly name = 'OllamaHttpError';
  constructor(
    readonly status: number,
    readonly error: unknown,
  ) {
    super(
      typeof (error as { error?: unknown })?.error === 'string'
        ? (error as { error: string }).error
        : String(error),
    );
  }
}

export class OllamaNativeClient extends WireClient<OllamaChatBody> {
  private readonly root: string;

  constructor(agent: ResolvedAgent, label: string) {
    super(agent, label);
    this.root = ollamaRoot(agent.baseUrl ?? OLLAMA_ROOT_URL);
  }

  protected get baseUrl(): string {
    return this.root;
  }

  protected params(request: ModelRequest): OllamaChatBody {
    const a = this.agent;
    const out = request.output;
    const schemaText = out?.method === 'json_schema' ? JSON.stringify(out.schema) : '';
    const system =
      schemaText && schemaText.length <= SCHEMA_IN_PROMPT_MAX_CHARS
        ? `${request.system}\n\nAnswer with one JSON object matching this JSON Schema:\n${schemaText}`
        : request.system;
    const messages: OllamaMessage[] = [
      { role: 'system', content: system },
      ...request.messages.map((m) => ({ role: m.role, content: m.content })),
    ];
    const tools =
      out?.method === 'tool_calling'
        ? [
            {
              type: 'function' as const,
              function: {
                name: out.name,
                description: out.description ?? `Answer as ${out.name}`,
                parameters: out.schema,
              },
            },
          ]
        : undefined;
    const promptTokens = estimatePromptTokens([
      ...messages.map((m) => m.content),
      ...(tools ? [JSON.stringify(tools)] : []),
    ]);
    const cap = a.ollama?.numCtxMax ?? DEFAULT_NUM_CTX_MAX;
    const { needed, numCtx } = contextFor(promptTokens, a.maxTokens ?? DEFAULT_ANSWER_ROOM, cap);
    if (numCtx === null) throw this.tooLongError(request, needed, cap);
    const keepAlive = a.ollama ? a.ollama.keepAlive : DEFAULT_KEEP_ALIVE;
    return {
      model: a.model,
      messages,
      ...(out?.method === 'json_schema' ? { format: out.schema } : {}),
      ...(out?.method === 'json_mode' ? { format: 'json' as const } : {}),
      ...(tools ? { tools } : {}),
      options: {
        num_ctx: numCtx,
        seed: SEED,
        ...(a.temperature !== null ? { temperature: a.temperature } : {}),
        ...(a.maxTokens !== null ? { num_predict: a.maxTokens } : {}),
      },
      ...(keepAlive !== null ? { keep_alive: keepAlive } : {}),
    };
  }

  protected async unstreamed(body: OllamaChatBody, request: ModelRequest): Promise<ModelResponse> {
    const signal =
      this.agent.timeoutS == null
        ? AbortSignal.any([request.signal!, AbortSignal.timeout(DEFAULT_UNSTREAMED_TIMEOUT_MS)])
        : request.signal!;
    const res = await this.post({ ...body, stream: false }, signal);
    const answer = (await res.json().catch((err: unknown) => {
      throw signal.aborted ? abortOrTimeout(signal) : err;
    })) as OllamaChunk;
    if (typeof answer.error === 'string') throw new OllamaHttpError(res.status, answer);
    const args = answer.message?.tool_calls?.[0]?.function?.arguments;
    const usage = usageOf(answer);
    const model = answer.model || this.agent.model;
    if (args !== undefined) return { ...toolAnswer(args), usage, model };
    return { text: answer.message?.content ?? '', usage, model };
  }

  protected async streamed(body: OllamaChatBody, request: ModelRequest): Promise<ModelResponse> {
    const signal = request.signal!;
    const res = await this.post({ ...body, stream: true }, signal);
    if (!res.body) throw this.cutShortError(request);
    try {
      return await this.readStream(res.body, request);
    } catch (err) {
      throw signal.aborted ? abortOrTimeout(signal) : err;
    }
  }

  private async readStream(body: ReadableStream<Uint8Array>, request: ModelRequest): Promise<ModelResponse> {
    let text = '';
    let toolArgs: unknown;
    let usage: TokenUsage | null = null;
    let model = this.agent.model;
    let done = false;
    for await (const chunk of ndjson(body)) {
      if (typeof chunk.error === 'string') {
        // An error once the stream began: the status line already said 200.
        throw Object.assign(new Error(chunk.error), { name: 'OllamaStreamError' });
      }
      if (chunk.model) model = chunk.model;
      const piece = chunk.message?.content;
      if (piece) {
        text += piece;
        request.onDelta?.(piece);
      }
      const args = chunk.message?.tool_calls?.[0]?.function?.arguments;
      if (args !== undefined) {
        toolArgs = args;
        request.onDelta?.(toolAnswer(args).text);
      }
      if (chunk.done) {
        done = true;
        usage = usageOf(chunk);
      }
    }
    if (!done) throw this.cutShortError(request);
    if (toolArgs !== undefined) return { ...toolAnswer(toolArgs), usage, model };
    return { text, usage, model };
  }

  /**
   * One POST, retried like the SDKs retry (a connection failure, 408, 409, 429 or 5xx; at most
   * max_retries more times, waiting as the server's retry-after says or backing off). Returns the
   * first 2xx response; any other status is thrown with the server's error body.
   */
  private async post(body: object, signal: AbortSignal): Promise<Response> {
    const retries = this.agent.maxRetries ?? DEFAULT_MAX_RETRIES;
    const url = `${this.root}/api/chat`;
    const payload = JSON.stringify(body);
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(url, { method: 'POST', headers: this.headers(), body: payload, signal });
      } catch (err) {
        if (signal.aborted) throw abortOrTimeout(signal);
        if (attempt >= retries) throw err;
        await pause(backoffMs(attempt), signal);
        continue;
      }
      if (res.ok) return res;
      const errorBody = await readBody(res);
      if (attempt >= retries || !retryable(res.status)) throw new OllamaHttpError(res.status, errorBody);
      await pause(retryAfterMs(res) ?? backoffMs(attempt), signal);
    }
  }

  private headers(): Record<string, string> {
    const key = this.agent.apiKey;
    return {
      'content-type': 'application/json',
      accept: 'application/x-ndjson, application/json',
      // A key only when one is configured (Ollama behind an authenticating proxy, or Ollama's cloud).
      ...(key && key !== PLACEHOLDER_API_KEY ? { authorization: `Bearer ${key}` } : {}),
      ...this.agent.headers,
    };
  }

  private tooLongError(request: ModelRequest, needed: number, cap: number): LlmError {
    const c = this.context(request);
    return new LlmError(
      'PROVIDER_CONTEXT_TOO_LONG',
      `${c.label} (model '${c.model}', agent '${c.agent}'): the prompt needs about ${needed} tokens of context with room for the answer, more than num_ctx_max (${cap}); it was not sent, because Ollama would cut it. Raise num_ctx_max for this agent if the model and the machine allow it`,
      { provider: c.provider, providerResponse: { error: 'context_too_long', needed, num_ctx_max: cap } },
    );
  }
}

function usageOf(c: OllamaChunk): TokenUsage | null {
  if (c.prompt_eval_count === undefined && c.eval_count === undefined) return null;
  return {
    // Ollama reports no cached-prompt count: every prompt token is counted as input.
    inputTokens: c.prompt_eval_count ?? 0,
    cachedInputTokens: 0,
    cacheWriteInputTokens: 0,
    outputTokens: c.eval_count ?? 0,
    reasoningTokens: 0,
  };
}

/** The lines of an NDJSON body, parsed; a line that is not JSON ends the stream with an error. */
async function* ndjson(body: ReadableStream<Uint8Array>): AsyncGenerator<OllamaChunk> {
  const decoder = new TextDecoder();
  let buffer = '';
  const parse = (line: string): OllamaChunk => {
    try {
      return JSON.parse(line) as OllamaChunk;
    } catch {
      throw new Error(`the streamed answer held a line that is not JSON: ${line.slice(0, 200)}`);
    }
  };
  for await (const bytes of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(bytes, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, end).trim();
      buffer = buffer.slice(end + 1);
      if (line) yield parse(line);
    }
  }
  const rest = (buffer + decoder.decode()).trim();
  if (rest) yield parse(rest);
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text().catch(() => '');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * A tool call's arguments as the answer: Ollama sends an object, already decoded; a server that
 * sends a string instead gets it parsed as any text answer is (structured.ts), fences and all.
 */
function toolAnswer(args: unknown): Pick<ModelResponse, 'text' | 'toolArguments'> {
  return typeof args === 'string' ? { text: args } : { text: JSON.stringify(args), toolArguments: args };
}

function retryable(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function retryAfterMs(res: Response): number | null {
  const ms = Number(res.headers.get('retry-after-ms'));
  if (res.headers.has('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const s = Number(res.headers.get('retry-after'));
  if (res.headers.has('retry-after') && Number.isFinite(s) && s >= 0) return s * 1000;
  return null;
}

function backoffMs(attempt: number): number {
  return Math.min(500 * 2 ** attempt, 8000);
}

async function pause(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await sleep(ms, undefined, { signal });
  } catch {
    throw abortOrTimeout(signal);
  }
}

/**
 * fetch rejects with whatever reason the signal was aborted with; name the kind instead, as the
 * error mapping reads it: a per-attempt timeout, or an abort (the run cancelled, the client closed).
 */
function abortOrTimeout(signal: AbortSignal): Error {
  const reason = signal.reason as { name?: string } | undefined;
  return reason?.name === 'TimeoutError'
    ? Object.assign(new Error('the request timed out'), { name: 'TimeoutError' })
    : Object.assign(new Error('the request was aborted'), { name: 'AbortError' });
}
