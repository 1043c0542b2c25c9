/**
 * The Anthropic messages wire (`anthropic`), over `@anthropic-ai/sdk` (an optional dependency,
 * loaded by the registry only when an agent uses it). The system prompt is one block carrying an
 * ephemeral cache breakpoint; max_tokens is 16000 unless the agent sets it; there is no seed.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsNonStreaming, Usage } from '@anthropic-ai/sdk/resources/messages/messages';
import type { TokenUsage } from '../usage';
import type { JsonSchema, ModelRequest, ModelResponse, ResolvedAgent } from './provider';
import { sdkOptions, WireClient } from './wire-client';

export const ANTHROPIC_DEFAULT_MAX_TOKENS = 16000;

type AnthropicConstructor = typeof Anthropic;
// SDK 1.x dropped `temperature` from its types (newer models reject it), but the wire still
// takes it and the spec wants the agent's temperature sent unless it is null.
type Params = MessageCreateParamsNonStreaming & { temperature?: number };
type PartialUsage = { [K in keyof Usage]?: Usage[K] | null };

export class AnthropicWireClient extends WireClient<Params> {
  private readonly sdk: Anthropic;

  constructor(Sdk: AnthropicConstructor, agent: ResolvedAgent, label: string) {
    super(agent, label);
    this.sdk = new Sdk(sdkOptions(agent));
  }

  protected get baseUrl(): string {
    return this.sdk.baseURL;
  }

  protected params(request: ModelRequest): Params {
    const a = this.agent;
    const params: Params = {
      model: a.model,
      max_tokens: a.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
      // The breakpoint on the last (here: only) system block lets the long, stable prompt
      // (schema context, instructions) be read from the cache on the following calls.
      system: [{ type: 'text', text: request.system, cache_control: { type: 'ephemeral' } }],
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
    };
    if (a.temperature !== null) params.temperature = a.temperature;
    const out = request.output;
    if (out?.method === 'tool_calling') {
      params.tools = [
        {
          name: out.name,
          description: out.description ?? `Answer as ${out.name}`,
          input_schema: { type: 'object', ...out.schema },
        },
      ];
      params.tool_choice = { type: 'tool', name: out.name };
    } else if (out?.method === 'json_schema' && acceptsJsonSchemaOutput(out.schema)) {
      params.output_config = { format: { type: 'json_schema', schema: out.schema } };
    } else if (out?.method === 'json_schema') {
      // Anthropic's JSON-schema outputs refuse recursive schemas (the plan language) and more than
      // 16 union-typed parameters: such a schema goes as a forced tool call instead.
      params.tools = [
        {
          name: out.name,
          description: out.description ?? `Answer as ${out.name}`,
          input_schema: { type: 'object', ...out.schema },
        },
      ];
      params.tool_choice = { type: 'tool', name: out.name };
    }
    return params;
  }

  protected async unstreamed(params: Params, request: ModelRequest): Promise<ModelResponse> {
    const message = await this.sdk.messages.create(params, { signal: request.signal });
    if (message.stop_reason === 'refusal') throw this.refusedError(request, null, message);
    const tool = message.content.find((b) => b.type === 'tool_use');
    // Some compatible servers omit usage: the call record then says usage_reported false.
    const usage = message.usage ? usageOf(message.usage) : null;
    if (tool && tool.type === 'tool_use') {
      const args = unwrapNested(tool.input, request.output?.schema);
      return {
        text: JSON.stringify(args),
        toolArguments: args,
        usage,
        model: message.model || this.agent.model,
      };
    }
    const text = message.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    return { text, usage, model: message.model || this.agent.model };
  }

  protected async streamed(params: Params, request: ModelRequest): Promise<ModelResponse> {
    const stream = await this.sdk.messages.create({ ...params, stream: true }, { signal: request.signal });
    let text = '';
    let args = '';
    let isTool = false;
    let model = this.agent.model;
    let usage: PartialUsage | null = null;
    let stop: string | null = null;
    let ended = false;
    for await (const event of stream) {
      switch (event.type) {
        case 'message_start':
          model = event.message.model || model;
          if (event.message.usage) usage = { ...event.message.usage };
          break;
        case 'content_block_start':
          if (event.content_block.type === 'tool_use') isTool = true;
          break;
        case 'content_block_delta':
          if (event.delta.type === 'text_delta') {
            text += event.delta.text;
            request.onDelta?.(event.delta.text);
          } else if (event.delta.type === 'input_json_delta') {
            args += event.delta.partial_json;
            request.onDelta?.(event.delta.partial_json);
          }
          break;
        case 'message_delta': {
          stop = event.delta.stop_reason ?? stop;
          if (event.usage) {
            const u = Object.fromEntries(
              Object.entries(event.usage).filter(([, v]) => v !== null && v !== undefined),
            );
            usage = { ...(usage ?? {}), ...u };
          }
          break;
        }
        case 'message_stop':
          ended = true;
          break;
        case 'content_block_stop':
          break;
      }
    }
    if (stop === 'refusal') throw this.refusedError(request, null, { stop_reason: stop, content: text });
    if (!ended) throw this.cutShortError(request);
    const tokens = usage ? usageOf(usage) : null;
    if (isTool) {
      let decoded: unknown = undefined;
      try {
        decoded = unwrapNested(JSON.parse(args || '{}'), request.output?.schema);
      } catch {
        // Left undecoded: the structured-output layer reports it as an answer that does not parse.
      }
      return {
        text: decoded === undefined ? args : JSON.stringify(decoded),
        toolArguments: decoded,
        usage: tokens,
        model,
      };
    }
    return { text, usage: tokens, model };
  }
}

/**
 * Claude sometimes wraps tool arguments in one extra object (`{"plan": {...}}` or
 * `{"input": "{...}"}`) under a key the schema does not declare. Such a single undeclared key is
 * peeled off; anything else is left for validation to judge.
 */
export function unwrapNested(input: unknown, schema: JsonSchema | undefined): unknown {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
  const keys = Object.keys(input);
  const declared = Object.keys((schema?.properties as Record<string, unknown> | undefined) ?? {});
  if (keys.length !== 1 || declared.length === 0 || declared.includes(keys[0] as string)) return input;
  let inner = (input as Record<string, unknown>)[keys[0] as string];
  if (typeof inner === 'string') {
    try {
      inner = JSON.parse(inner);
    } catch {
      return input;
    }
  }
  return inner && typeof inner === 'object' && !Array.isArray(inner) ? inner : input;
}

function usageOf(u: PartialUsage): TokenUsage {
  const cached = u.cache_read_input_tokens ?? 0;
  const written = u.cache_creation_input_tokens ?? 0;
  return {
    // Anthropic's input_tokens excludes cache reads and writes; ours counts every prompt token.
    inputTokens: (u.input_tokens ?? 0) + cached + written,
    cachedInputTokens: cached,
    cacheWriteInputTokens: written,
    outputTokens: u.output_tokens ?? 0,
    reasoningTokens: 0,
  };
}

/** Most union-typed parameters Anthropic's JSON-schema outputs take. */
export const ANTHROPIC_MAX_UNIONS = 16;

const jsonSchemaVerdicts = new WeakMap<JsonSchema, boolean>();

/** Whether Anthropic's `json_schema` output format takes this schema: no $ref, at most 16 unions. */
export function acceptsJsonSchemaOutput(schema: JsonSchema): boolean {
  let ok = jsonSchemaVerdicts.get(schema);
  if (ok === undefined) {
    let refs = 0;
    let unions = 0;
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (!node || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      if (typeof n.$ref === 'string') refs++;
      if (Array.isArray(n.anyOf) || Array.isArray(n.oneOf) || (Array.isArray(n.type) && n.type.length > 1))
        unions++;
      Object.values(n).forEach(visit);
    };
    visit(schema);
    ok = refs === 0 && unions <= ANTHROPIC_MAX_UNIONS;
    jsonSchemaVerdicts.set(schema, ok);
  }
  return ok;
}
