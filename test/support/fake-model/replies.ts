/**
 * What a test scripts the fake model server to answer. One reply is consumed per request, in
 * order, whatever the wire; the server renders it in the wire the request came on.
 */

/** Token counts to report. `input` counts every prompt token (cached and cache-written included). */
export interface FakeUsage {
  readonly input?: number;
  readonly output?: number;
  readonly cached?: number;
  readonly cacheWrite?: number;
  readonly reasoning?: number;
}

/** Provider failures with the status and body each wire really sends. */
export type FakeFailure =
  | 'auth' // 401
  | 'permission' // 403
  | 'not_found' // 404, unknown model
  | 'rate_limit' // 429
  | 'quota' // 429 insufficient_quota (openai) / 402-like billing message
  | 'server' // 500
  | 'overloaded' // 529 (anthropic) / 503 (openai)
  | 'temperature' // 400 rejecting the temperature parameter
  | 'context' // 400 prompt too long
  | 'bad_request'; // 400 other

interface Common {
  /** Waits this long before answering (to hold a request in flight). */
  readonly delayMs?: number;
  /** Model name echoed in the answer; the requested model by default. */
  readonly model?: string;
  /** Usage to report; null sends none. Default { input: 100, output: 20 }. */
  readonly usage?: FakeUsage | null;
  /**
   * A streamed answer that goes wrong after its first pieces: `stall` sends nothing more and keeps
   * the connection open; `cut` closes it cleanly without the end of the answer (no finish_reason,
   * no [DONE], no message_stop).
   */
  readonly streamFault?: 'stall' | 'cut';
}

export type FakeReply =
  /** A structured value: a tool call when the request offered a tool, else JSON text content. */
  | (Common & { readonly json: unknown })
  /** Text content as it is (malformed output, prose, fenced JSON...). On the OpenAI wire with a tool
   * requested, it becomes the raw tool-call arguments. */
  | (Common & { readonly text: string })
  /** The model declines (OpenAI `refusal`, Anthropic stop_reason `refusal`). */
  | (Common & { readonly refusal: string })
  /** A provider failure rendered in the request's wire. `message` overrides the default text. */
  | (Common & { readonly fail: FakeFailure; readonly message?: string })
  /** Any status and body, as given. */
  | (Common & { readonly status: number; readonly body: unknown; readonly headers?: Record<string, string> })
  /** Never answers: the client's timeout (or close) ends the request. */
  | { readonly hang: true };

export const DEFAULT_USAGE: Required<FakeUsage> = {
  input: 100,
  output: 20,
  cached: 0,
  cacheWrite: 0,
  reasoning: 0,
};

export interface RenderedFailure {
  readonly status: number;
  readonly body: unknown;
}

const FAILURES: Record<
  FakeFailure,
  {
    status: number;
    openaiStatus?: number;
    type: string;
    code: string | null;
    message: string;
    param?: string;
  }
> = {
  auth: {
    status: 401,
    type: 'authentication_error',
    code: 'invalid_api_key',
    message: 'Incorrect API key provided: sk-fake-leaked-1234567890abcdef.',
  },
  permission: {
    status: 403,
    type: 'permission_error',
    code: null,
    message: 'Your API key does not have permission to use the specified resource.',
  },
  not_found: {
    status: 404,
    type: 'not_found_error',
    code: 'model_not_found',
    message: 'The model does not exist or you do not have access to it.',
  },
  rate_limit: {
    status: 429,
    type: 'rate_limit_error',
    code: 'rate_limit_exceeded',
    message: 'Rate limit reached for requests per minute. Please try again shortly.',
  },
  quota: {
    status: 429,
    type: 'insufficient_quota',
    code: 'insufficient_quota',
    message: 'You exceeded your current quota, please check your plan and billing details.',
  },
  server: {
    status: 500,
    type: 'api_error',
    code: null,
    message: 'The server had an error while processing your request.',
  },
  overloaded: { status: 529, openaiStatus: 503, type: 'overloaded_error', code: null, message: 'Overloaded' },
  temperature: {
    status: 400,
    type: 'invalid_request_error',
    code: 'unsupported_value',
    param: 'temperature',
    message:
      "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
  },
  context: {
    status: 400,
    type: 'invalid_request_error',
    code: 'context_length_exceeded',
    param: 'messages',
    message:
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.",
  },
  bad_request: {
    status: 400,
    type: 'invalid_request_error',
    code: null,
    message: "Invalid value for 'tool_choice'.",
  },
};

/**
 * Ollama's errors are `{"error": "<text>"}` (docs/api/errors); where Ollama has its own words for a
 * failure they are used here, with `{model}` standing for the requested model.
 */
const OLLAMA_FAILURES: Record<FakeFailure, { status: number; message: string }> = {
  auth: { status: 401, message: 'unauthorized' },
  permission: { status: 403, message: 'forbidden' },
  not_found: { status: 404, message: "model '{model}' not found" },
  rate_limit: { status: 429, message: 'too many requests' },
  quota: { status: 402, message: 'payment required: usage quota exceeded' },
  server: { status: 500, message: 'llama runner process has terminated: exit status 2' },
  overloaded: { status: 503, message: 'server busy, please try again.  maximum pending requests exceeded' },
  temperature: { status: 400, message: 'invalid option: temperature' },
  context: { status: 400, message: 'the input length exceeds the context length' },
  bad_request: { status: 400, message: 'invalid format: expected "json" or a valid JSON schema' },
};

export function renderFailure(
  wire: 'openai' | 'anthropic' | 'ollama',
  failure: FakeFailure,
  message?: string,
  model = 'fake-model',
): RenderedFailure {
  if (wire === 'ollama') {
    const o = OLLAMA_FAILURES[failure];
    return { status: o.status, body: { error: message ?? o.message.replace('{model}', model) } };
  }
  const f = FAILURES[failure];
  const text =
    message ??
    (wire === 'anthropic' && failure === 'context'
      ? 'prompt is too long: 210512 tokens > 200000 maximum'
      : f.message);
  if (wire === 'anthropic') {
    return {
      status: f.status,
      body: { type: 'error', error: { type: f.type, message: text }, request_id: 'req_fake' },
    };
  }
  return {
    status: f.openaiStatus ?? f.status,
    body: { error: { message: text, type: f.type, param: f.param ?? null, code: f.code } },
  };
}
