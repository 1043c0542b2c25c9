/**
 * Turns whatever an SDK throws into one typed PROVIDER_* error. Both SDKs share the same error
 * shape (`status`, `error` body, class names), so this reads fields rather than importing classes:
 * the Anthropic SDK is optional and may not be installed.
 */
import { redact } from '../../../config/redact';
import { LlmError, type ProviderErrorCode } from '../errors';

export interface CallContext {
  readonly provider: string;
  readonly label: string;
  readonly model: string;
  readonly agent: string;
  /** Whether the failed request carried a temperature (a 400 about it is then ours to explain). */
  readonly sentTemperature: boolean;
  readonly baseUrl: string;
}

export function toProviderError(err: unknown, ctx: CallContext): LlmError {
  if (err instanceof LlmError) return err;
  const e = (err ?? {}) as {
    name?: string;
    status?: unknown;
    error?: unknown;
    message?: string;
    cause?: unknown;
  };
  // The openai SDK leaves `name` as 'Error'; the class name tells the kind on both SDKs.
  const is = (kind: string) => e.name === kind || (err as object | null)?.constructor?.name === kind;
  const where = `${ctx.label} (model '${ctx.model}', agent '${ctx.agent}')`;
  const make = (code: ProviderErrorCode, message: string, response: unknown = null) =>
    new LlmError(code, message, { provider: ctx.provider, providerResponse: response });

  // The SDKs' class names, and fetch's own kinds (the Ollama native wire is written on fetch).
  if (is('APIConnectionTimeoutError') || is('TimeoutError')) {
    return make('PROVIDER_TIMEOUT', `${where} did not answer in time`, { error: 'timeout' });
  }
  if (is('APIUserAbortError') || is('AbortError')) {
    return make('PROVIDER_ERROR', `the request to ${where} was aborted`, { error: 'aborted' });
  }
  if (is('APIConnectionError') || (typeof e.status !== 'number' && isNetworkError(e))) {
    // Read by shape: fetch's cause (e.g. connect ECONNREFUSED) may come from another realm.
    const causeMessage = (e.cause as { message?: unknown } | undefined)?.message;
    const cause = typeof causeMessage === 'string' && causeMessage ? `: ${causeMessage}` : '';
    return make(
      'PROVIDER_UNAVAILABLE',
      `cannot reach ${where} at ${ctx.baseUrl}${cause}. ${unreachableHint(ctx)}`,
      {
        error: 'connection',
        detail: redact(`${e.message ?? ''}${cause}`),
      },
    );
  }
  if (typeof e.status !== 'number') {
    return make('PROVIDER_ERROR', `${where} failed: ${e.message ?? String(err)}`, {
      error: e.message ?? String(err),
    });
  }

  const status = e.status;
  const body = e.error ?? null;
  const apiMessage = findMessage(body) ?? e.message ?? '';
  const response = { status, body };
  const text = `${where} answered HTTP ${status}: ${apiMessage}`;
  const lower = `${apiMessage} ${JSON.stringify(body)}`.toLowerCase();

  if (status === 401) return make('PROVIDER_AUTH_FAILED', `${text} (check the API key)`, response);
  if (status === 403) return make('PROVIDER_PERMISSION_DENIED', text, response);
  if (status === 404) {
    // Ollama answers 404 for a model that is not pulled on the server: say how to pull it.
    const pull = ctx.provider === 'ollama' ? ` (pull it: 'ollama pull ${ctx.model}')` : '';
    return make('PROVIDER_MODEL_NOT_FOUND', `${text}${pull}`, response);
  }
  if (status === 402 || (status === 429 && /insufficient_quota|quota|billing|credit/.test(lower))) {
    return make('PROVIDER_QUOTA_EXCEEDED', text, response);
  }
  if (status === 429) return make('PROVIDER_RATE_LIMITED', text, response);
  if (status === 408 || status === 504) return make('PROVIDER_TIMEOUT', text, response);
  if (status === 400 || status === 413 || status === 422) {
    if (
      /context_length|context length|context window|too many tokens|prompt is too long|maximum context/.test(
        lower,
      ) ||
      status === 413
    ) {
      return make('PROVIDER_CONTEXT_TOO_LONG', text, response);
    }
    if (ctx.sentTemperature && /temperature/.test(lower)) {
      return make(
        'PROVIDER_TEMPERATURE_REJECTED',
        `model '${ctx.model}' of agent '${ctx.agent}' does not accept a temperature (${ctx.label}: ${apiMessage}); set 'temperature: null' for this agent in the llm section`,
        response,
      );
    }
    if (/content_policy|content policy|content_filter|safety system/.test(lower)) {
      return make('PROVIDER_CONTENT_REFUSED', text, response);
    }
    return make('PROVIDER_BAD_REQUEST', text, response);
  }
  if (status >= 500) return make('PROVIDER_UNAVAILABLE', text, response);
  return make('PROVIDER_ERROR', text, response);
}

/** The provider's own words: `error.message` on the OpenAI wire, `error.error.message` on Anthropic's. */
function findMessage(body: unknown): string | null {
  if (!body || typeof body !== 'object') return typeof body === 'string' ? body : null;
  const b = body as { message?: unknown; error?: unknown };
  if (typeof b.message === 'string') return b.message;
  return findMessage(b.error);
}

function isNetworkError(e: { name?: string; message?: string }): boolean {
  return e.name === 'TypeError' && /fetch failed/i.test(e.message ?? '');
}

/** What to do when a model's endpoint does not answer: said the same way at start-up and per run. */
export function unreachableHint(ctx: { provider: string; model: string }): string {
  const other =
    'or give the llm section (in the config file, or PUT /api/v1/settings/llm) a provider you can reach with its key, e.g. provider: openai, model: gpt-4.1-mini and OPENAI_API_KEY';
  return ctx.provider === 'ollama'
    ? `To fix: start Ollama ('ollama serve') and pull the model ('ollama pull ${ctx.model}'), ${other}.`
    : `To fix: check that the endpoint is up and reachable from the service, ${other}.`;
}
