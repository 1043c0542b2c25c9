/**
 * The OpenAI chat-completions wire (`openai`, `openai_compatible`, `openrouter`, and `ollama` with
 * `wire: openai`, the default of its spec alias `local_server`), over the official `openai` SDK.
 * Every request carries seed 42 for determinism, and the agent's temperature unless it is null.
 * max_tokens, timeout, retries and headers reach the SDK only when set.
 */
import OpenAI from 'openai';
import type {
  ChatCompletionCreateParams,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { TokenUsage } from '../usage';
import type { ModelRequest, ModelResponse, ResolvedAgent } from './provider';
import { acceptsStrict } from './openai-strict';
import { sdkOptions, WireClient } from './wire-client';

export const SEED = 42;

export class OpenAiWireClient extends WireClient<ChatCompletionCreateParams> {
  private readonly sdk: OpenAI;

  constructor(
    agent: ResolvedAgent,
    label: string,
    /** The official endpoint takes `max_completion_tokens`; compatible servers know `max_tokens`. */
    private readonly tokensParam: 'max_completion_tokens' | 'max_tokens',
  ) {
    super(agent, label);
    this.sdk = new OpenAI(sdkOptions(agent));
  }

  protected get baseUrl(): string {
    return this.sdk.baseURL;
  }

  protected params(request: ModelRequest): ChatCompletionCreateParams {
    const a = this.agent;
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: request.system },
      ...request.messages.map((m) => ({ role: m.role, content: m.content })),
    ];
    const params: ChatCompletionCreateParams = { model: a.model, messages, seed: SEED };
    if (a.temperature !== null) params.temperature = a.temperature;
    if (a.maxTokens !== null) params[this.tokensParam] = a.maxTokens;
    const out = request.output;
    if (out?.method === 'tool_calling') {
      params.tools = [
        {
          type: 'function',
          function: {
            name: out.name,
            description: out.description ?? `Answer as ${out.name}`,
            parameters: out.schema,
            // Strict: the answer is decoded under the schema, so a slip never costs a correction round.
            strict: acceptsStrict(out.schema),
          },
        },
      ];
      params.tool_choice = { type: 'function', function: { name: out.name } };
      params.parallel_tool_calls = false;
    } else if (out?.method === 'json_schema') {
      params.response_format = {
        type: 'json_schema',
        json_schema: {
          name: out.name,
          schema: out.schema,
          strict: acceptsStrict(out.schema),
          description: out.description,
        },
      };
    } else if (out?.method === 'json_mode') {
      params.response_format = { type: 'json_object' };
    }
    return params;
  }

  protected async unstreamed(
    params: ChatCompletionCreateParams,
    request: ModelRequest,
  ): Promise<ModelResponse> {
    const completion = await this.sdk.chat.completions.create(
      { ...params, stream: false },
      { signal: request.signal },
    );
    const choice = completion.choices[0];
    const message = choice?.message;
    if (message?.refusal || choice?.finish_reason === 'content_filter') {
      const reason = message?.refusal ?? 'stopped by the content filter';
      throw this.refusedError(request, reason, { refusal: reason, body: completion });
    }
    const call = message?.tool_calls?.find((c) => c.type === 'function');
    const text = call && call.type === 'function' ? call.function.arguments : (message?.content ?? '');
    return { text, usage: usageOf(completion.usage), model: completion.model || this.agent.model };
  }

  protected async streamed(
    params: ChatCompletionCreateParams,
    request: ModelRequest,
  ): Promise<ModelResponse> {
    const stream = await this.sdk.chat.completions.create(
      { ...params, stream: true, stream_options: { include_usage: true } },
      { signal: request.signal },
    );
    let text = '';
    let args = '';
    let usage: TokenUsage | null = null;
    let model = this.agent.model;
    let refusal = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      if (chunk.model) model = chunk.model;
      if (chunk.usage) usage = usageOf(chunk.usage);
      const choice = chunk.choices[0];
      if (!choice) continue;
      if (choice.finish_reason) finish = choice.finish_reason;
      const delta = choice.delta;
      if (delta.refusal) refusal += delta.refusal;
      if (delta.content) {
        text += delta.content;
        request.onDelta?.(delta.content);
      }
      for (const tc of delta.tool_calls ?? []) {
        const piece = tc.function?.arguments;
        if (piece) {
          args += piece;
          request.onDelta?.(piece);
        }
      }
    }
    if (refusal || finish === 'content_filter') {
      const reason = refusal || 'stopped by the content filter';
      throw this.refusedError(request, reason, { refusal: reason, body: null });
    }
    if (finish === null) throw this.cutShortError(request);
    return { text: args || text, usage, model };
  }
}

function usageOf(u: CompletionUsage | null | undefined): TokenUsage | null {
  if (!u) return null;
  const extra = u as CompletionUsage & { prompt_tokens_details?: { cache_write_tokens?: number } };
  return {
    inputTokens: u.prompt_tokens ?? 0,
    cachedInputTokens: u.prompt_tokens_details?.cached_tokens ?? 0,
    cacheWriteInputTokens: extra.prompt_tokens_details?.cache_write_tokens ?? 0,
    outputTokens: u.completion_tokens ?? 0,
    reasoningTokens: u.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}
