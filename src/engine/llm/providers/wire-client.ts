/**
 * What both model wires share: SDK options from the agent's settings (only those set), the calls
 * in flight that close() aborts, one error path to PROVIDER_* codes, and the refusal and
 * closed-client errors. A wire supplies how to build its request and read its answers.
 */
import { LlmError } from '../errors';
import { toProviderError, type CallContext } from './error-mapping';
import type { ModelClient, ModelRequest, ModelResponse, ResolvedAgent } from './provider';

/**
 * The SDK constructor options both SDKs take, from the agent's settings that are set. timeout_s is
 * not the SDK's per-attempt timeout: it is the whole call's budget, retries included (CallDeadline).
 */
/** Between two pieces of a streamed answer, at most this long (or timeout_s when shorter). */
export const STREAM_IDLE_MS = 60_000;
/** A streamed answer's whole budget when timeout_s is not set: a trickle must end too. */
export const STREAM_DEFAULT_BUDGET_MS = 10 * 60_000;

export function sdkOptions(agent: ResolvedAgent) {
  return {
    apiKey: agent.apiKey ?? undefined,
    ...(agent.baseUrl ? { baseURL: agent.baseUrl } : {}),
    ...(agent.maxRetries != null ? { maxRetries: agent.maxRetries } : {}),
    ...(Object.keys(agent.headers).length ? { defaultHeaders: { ...agent.headers } } : {}),
  };
}

export abstract class WireClient<Params> implements ModelClient {
  /** One controller per call in flight: the run's signal and close() both abort it. */
  private readonly inFlight = new Set<AbortController>();
  private closed = false;

  protected constructor(
    protected readonly agent: ResolvedAgent,
    protected readonly label: string,
  ) {}

  /** The endpoint requests go to (for error messages). */
  protected abstract get baseUrl(): string;
  protected abstract params(request: ModelRequest): Params;
  protected abstract unstreamed(params: Params, request: ModelRequest): Promise<ModelResponse>;
  protected abstract streamed(params: Params, request: ModelRequest): Promise<ModelResponse>;

  async complete(request: ModelRequest): Promise<ModelResponse> {
    if (this.closed) throw this.closedError(request);
    const params = this.params(request);
    const controller = new AbortController();
    const outer = request.signal;
    const onAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted) controller.abort(outer.reason);
    else outer?.addEventListener('abort', onAbort, { once: true });
    this.inFlight.add(controller);
    const deadline = new CallDeadline(controller, this.agent.timeoutS, Boolean(request.onDelta));
    const onDelta = request.onDelta;
    const call: ModelRequest = {
      ...request,
      signal: controller.signal,
      onDelta: onDelta
        ? (piece) => {
            deadline.progress();
            onDelta(piece);
          }
        : undefined,
    };
    try {
      const work = onDelta ? this.streamed(params, call) : this.unstreamed(params, call);
      // An SDK waiting out a provider's Retry-After does not watch its signal: the deadline does not
      // wait for it (the late failure of the abandoned attempt is expected and dropped).
      work.catch(() => undefined);
      return await Promise.race([work, deadline.expiry]);
    } catch (err) {
      if (this.closed) throw this.closedError(request);
      if (deadline.expired) throw this.timeoutError(request, deadline.expired);
      throw toProviderError(err, this.context(request));
    } finally {
      deadline.clear();
      this.inFlight.delete(controller);
      outer?.removeEventListener('abort', onAbort);
    }
  }

  protected timeoutError(request: ModelRequest, which: 'overall' | 'idle'): LlmError {
    const c = this.context(request);
    const why =
      which === 'idle'
        ? 'its streamed answer stalled'
        : `it did not answer within timeout_s (${this.agent.timeoutS} s, retries included)`;
    return new LlmError('PROVIDER_TIMEOUT', `${c.label} at ${c.baseUrl} timed out: ${why}`, {
      provider: c.provider,
      providerResponse: { error: 'timeout', deadline: which },
    });
  }

  /** A stream that ended without the provider's end-of-answer mark was cut short, not answered. */
  protected cutShortError(request: ModelRequest): LlmError {
    const c = this.context(request);
    return new LlmError(
      'PROVIDER_UNAVAILABLE',
      `${c.label} at ${c.baseUrl} closed the streamed answer before it was complete`,
      { provider: c.provider, providerResponse: { error: 'stream_cut_short' } },
    );
  }

  /** Refuses new calls and aborts those in flight (their HTTP requests and streams end). */
  async close(): Promise<void> {
    this.closed = true;
    for (const c of this.inFlight) c.abort(new Error('client closed'));
    this.inFlight.clear();
  }

  protected refusedError(request: ModelRequest, reason: string | null, providerResponse: unknown): LlmError {
    const c = this.context(request);
    return new LlmError(
      'PROVIDER_CONTENT_REFUSED',
      `${c.label} (model '${c.model}', agent '${c.agent}') refused to answer${reason ? `: ${reason}` : ''}`,
      { provider: c.provider, providerResponse },
    );
  }

  protected closedError(request: ModelRequest): LlmError {
    return new LlmError(
      'LLM_CLIENT_CLOSED',
      `the client of agent '${request.agent ?? this.agent.name}' was closed`,
      {
        provider: this.agent.provider,
      },
    );
  }

  protected context(request?: ModelRequest): CallContext {
    return {
      provider: this.agent.provider,
      label: this.label,
      model: this.agent.model,
      agent: request?.agent ?? this.agent.name,
      sentTemperature: this.agent.temperature !== null,
      baseUrl: this.baseUrl,
    };
  }
}

/**
 * A call's own deadlines: with timeout_s set, the whole call, retries and a streamed answer
 * included, ends by then (the SDK's own timeout would cover one attempt up to its headers); a
 * streamed answer also ends when no piece arrives for STREAM_IDLE_MS (or timeout_s if shorter), and
 * after STREAM_DEFAULT_BUDGET_MS when timeout_s is not set.
 */
class CallDeadline {
  expired: 'overall' | 'idle' | null = null;
  /** Rejects when a deadline expires; never settles otherwise. */
  readonly expiry: Promise<never>;
  private rejectExpiry: (reason: Error) => void = () => undefined;
  private readonly overall: NodeJS.Timeout | null;
  private idle: NodeJS.Timeout | null = null;
  private readonly idleMs: number;

  constructor(
    private readonly controller: AbortController,
    timeoutS: number | null,
    private readonly streamed: boolean,
  ) {
    this.expiry = new Promise<never>((_, reject) => {
      this.rejectExpiry = reject;
    });
    const overallMs =
      timeoutS != null ? Math.round(timeoutS * 1000) : streamed ? STREAM_DEFAULT_BUDGET_MS : null;
    this.idleMs = Math.min(STREAM_IDLE_MS, overallMs ?? STREAM_IDLE_MS);
    this.overall = overallMs != null ? setTimeout(() => this.expire('overall'), overallMs) : null;
    this.progress();
  }

  /** A piece of the answer arrived: the idle clock starts again. */
  progress(): void {
    if (!this.streamed || this.expired) return;
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => this.expire('idle'), this.idleMs);
  }

  clear(): void {
    if (this.overall) clearTimeout(this.overall);
    if (this.idle) clearTimeout(this.idle);
  }

  private expire(which: 'overall' | 'idle'): void {
    if (this.expired) return;
    this.expired = which;
    const reason = new Error(`model call deadline (${which})`);
    this.controller.abort(reason);
    this.rejectExpiry(reason);
  }
}
