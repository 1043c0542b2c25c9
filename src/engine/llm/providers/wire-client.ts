/**
 * What both model wires share: SDK options from the agent's settings (only those set), the
 * tracked fetch that close() aborts, one error path to PROVIDER_* codes, and the refusal and
 * closed-client errors. A wire supplies how to build its request and read its answers.
 */
import { LlmError } from '../errors';
import { toProviderError, type CallContext } from './error-mapping';
import type { ModelClient, ModelRequest, ModelResponse, ResolvedAgent } from './provider';
import { TrackedFetch } from './tracked-fetch';

/** The SDK constructor options both SDKs take, from the agent's settings that are set. */
export function sdkOptions(agent: ResolvedAgent, tracker: TrackedFetch) {
  return {
    apiKey: agent.apiKey ?? undefined,
    fetch: tracker.fetch,
    ...(agent.baseUrl ? { baseURL: agent.baseUrl } : {}),
    ...(agent.timeoutS != null ? { timeout: Math.round(agent.timeoutS * 1000) } : {}),
    ...(agent.maxRetries != null ? { maxRetries: agent.maxRetries } : {}),
    ...(Object.keys(agent.headers).length ? { defaultHeaders: { ...agent.headers } } : {}),
  };
}

export abstract class WireClient<Params> implements ModelClient {
  protected readonly tracker: TrackedFetch;

  protected constructor(
    protected readonly agent: ResolvedAgent,
    protected readonly label: string,
  ) {
    this.tracker = new TrackedFetch(agent.provider);
  }

  /** The endpoint requests go to (for error messages). */
  protected abstract get baseUrl(): string;
  protected abstract params(request: ModelRequest): Params;
  protected abstract unstreamed(params: Params, request: ModelRequest): Promise<ModelResponse>;
  protected abstract streamed(params: Params, request: ModelRequest): Promise<ModelResponse>;

  async complete(request: ModelRequest): Promise<ModelResponse> {
    if (this.tracker.closed) throw this.closedError(request);
    const params = this.params(request);
    try {
      return request.onDelta ? await this.streamed(params, request) : await this.unstreamed(params, request);
    } catch (err) {
      if (this.tracker.closed) throw this.closedError(request);
      throw toProviderError(err, this.context(request));
    }
  }

  async close(): Promise<void> {
    this.tracker.close();
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
