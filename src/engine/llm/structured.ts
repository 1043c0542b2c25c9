/**
 * Structured output, the one call every node makes: ask with the agent's method (tool_calling,
 * json_schema or json_mode), validate the answer against the schema, and on failure send the
 * answer back with its validation errors, up to `parse_retries` times; then MODEL_OUTPUT_INVALID.
 * Only the first attempt streams: retries are corrections, not part of the answer a user watches.
 */
import { briefCorrection, parseProblem } from './corrections';
import Ajv, { type ValidateFunction } from 'ajv';
import { redact } from '../../config/redact';
import { LlmError } from './errors';
import { MAX_PLAN_DEPTH, exceedsDepth } from '../plan';
import type { PriceTable } from './prices';
import type {
  ChatMessage,
  JsonSchema,
  ModelClient,
  ModelResponse,
  OutputSpec,
  ResolvedAgent,
} from './providers/provider';
import { callRecord, type CallRecord } from './usage';

export interface StructuredRequest {
  readonly system: string;
  readonly messages: readonly ChatMessage[];
  readonly schema: JsonSchema;
  /** Tool / schema name shown to the model (letters, digits, _ and -). */
  readonly schemaName: string;
  readonly description?: string;
}

export interface TextRequest {
  readonly system: string;
  readonly messages: readonly ChatMessage[];
}

export interface CallOptions {
  /** Node name for the call records; the agent's name by default. */
  readonly node?: string;
  readonly signal?: AbortSignal;
  /** Streams the first attempt's raw answer (structured) or the text (text calls). */
  readonly onDelta?: (text: string) => void;
}

export interface StructuredResult<T> {
  readonly value: T;
  /** One record per model call made, corrections included. */
  readonly calls: CallRecord[];
}

export interface TextResult {
  readonly text: string;
  readonly calls: CallRecord[];
}

export interface CallContext {
  readonly client: ModelClient;
  readonly agent: ResolvedAgent;
  readonly prices: PriceTable;
}

/**
 * Answers are checked with the validator that stops at the first error, and only an answer that
 * fails is checked again with every error collected, for the correction sent back to the model:
 * collecting them all in the plan's expression union is costly, and most answers pass.
 */
const firstError = new Ajv({
  allErrors: false,
  strict: false,
  allowUnionTypes: true,
  validateFormats: false,
});
const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true, validateFormats: false });
/** Compiled once per schema each; the explaining one only when some answer first fails. */
const passing = new WeakMap<JsonSchema, ValidateFunction>();
/** Deeper than any plan the validator accepts (so those get its PLAN_TOO_COMPLEX), shallow enough for ajv. */
const MAX_ANSWER_DEPTH = 2 * MAX_PLAN_DEPTH;
const explaining = new WeakMap<JsonSchema, ValidateFunction>();

export async function structuredCall<T>(
  ctx: CallContext,
  request: StructuredRequest,
  options: CallOptions = {},
): Promise<StructuredResult<T>> {
  const { agent } = ctx;
  const output: OutputSpec = {
    method: agent.structuredOutput,
    schema: request.schema,
    name: request.schemaName,
    description: request.description,
  };
  const system =
    agent.structuredOutput === 'json_mode' ? withSchemaInPrompt(request.system, request) : request.system;
  const passes = compiled(firstError, passing, request.schema);
  const calls: CallRecord[] = [];
  const corrections: ChatMessage[] = [];
  let lastErrors = '';
  for (let attempt = 0; attempt <= agent.parseRetries; attempt++) {
    const response = await timedCall(ctx, calls, options, {
      system,
      messages: [...request.messages, ...corrections],
      output,
      onDelta: attempt === 0 ? options.onDelta : undefined,
      signal: options.signal,
    });
    const parsed = parseAnswer(response);
    // The schema validators recurse over the answer: one nested deep enough overflows them.
    const tooDeep = parsed.ok && exceedsDepth(parsed.value, MAX_ANSWER_DEPTH);
    if (parsed.ok && !tooDeep && passes(parsed.value)) return { value: parsed.value as T, calls };
    lastErrors = tooDeep
      ? `the answer nests more than ${MAX_ANSWER_DEPTH} levels deep; answer with a flatter object`
      : parsed.ok
        ? explain(request, parsed.value)
        : parsed.error;
    corrections.push(
      { role: 'assistant', content: response.text || '(empty answer)' },
      {
        role: 'user',
        content: `That answer does not match the ${request.schemaName} schema: ${lastErrors}. Answer again with one corrected ${request.schemaName} object only.`,
      },
    );
  }
  const err = new LlmError(
    'MODEL_OUTPUT_INVALID',
    `agent '${agent.name}' (model '${agent.model}') gave no valid ${request.schemaName} after ${agent.parseRetries + 1} attempt(s): ${lastErrors}`,
    {
      provider: agent.provider,
      details: { agent: agent.name, model: agent.model, attempts: agent.parseRetries + 1 },
    },
  );
  err.calls = calls;
  throw err;
}

export async function textCall(
  ctx: CallContext,
  request: TextRequest,
  options: CallOptions = {},
): Promise<TextResult> {
  const calls: CallRecord[] = [];
  const response = await timedCall(ctx, calls, options, {
    system: request.system,
    messages: request.messages,
    onDelta: options.onDelta,
    signal: options.signal,
  });
  return { text: response.text, calls };
}

async function timedCall(
  ctx: CallContext,
  calls: CallRecord[],
  options: CallOptions,
  request: Parameters<ModelClient['complete']>[0],
): Promise<ModelResponse> {
  const node = options.node ?? ctx.agent.name;
  const started = performance.now();
  try {
    const response = await ctx.client.complete({ ...request, agent: ctx.agent.name });
    calls.push(
      callRecord({
        node,
        model: ctx.agent.model,
        usage: response.usage,
        latencyS: (performance.now() - started) / 1000,
        prices: ctx.prices,
      }),
    );
    return response;
  } catch (raw) {
    const err =
      raw instanceof LlmError
        ? raw
        : new LlmError(
            'PROVIDER_ERROR',
            `provider '${ctx.agent.provider}' failed: ${raw instanceof Error ? raw.message : String(raw)}`,
            {
              provider: ctx.agent.provider,
              providerResponse: { error: redact(raw instanceof Error ? raw.message : String(raw)) },
            },
          );
    calls.push(
      callRecord({
        node,
        model: ctx.agent.model,
        usage: null,
        latencyS: (performance.now() - started) / 1000,
        prices: ctx.prices,
        error: err.code,
      }),
    );
    err.calls = [...calls];
    throw err;
  }
}

type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * The answer's JSON: the decoded tool arguments, or the text. Local models often wrap JSON in a
 * code fence or a sentence; the first complete JSON object in the text is taken.
 */
export function parseAnswer(response: Pick<ModelResponse, 'text' | 'toolArguments'>): Parsed {
  if (response.toolArguments !== undefined) return { ok: true, value: response.toolArguments };
  const text = response.text.trim();
  if (!text) return { ok: false, error: 'the answer was empty' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (parseError) {
    const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1];
    const candidate = fenced ?? sliceObject(text);
    if (candidate) {
      try {
        return { ok: true, value: JSON.parse(candidate) };
      } catch {
        // fall through to the error below
      }
    }
    return { ok: false, error: parseProblem(text, parseError) };
  }
}

function sliceObject(text: string): string | null {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  return start >= 0 && end > start ? text.slice(start, end + 1) : null;
}

function withSchemaInPrompt(system: string, request: StructuredRequest): string {
  return `${system}\n\nAnswer with one JSON object only (no prose, no code fence): a ${request.schemaName} matching this JSON Schema:\n${JSON.stringify(request.schema)}`;
}

function compiled(
  instance: Ajv,
  cache: WeakMap<JsonSchema, ValidateFunction>,
  schema: JsonSchema,
): ValidateFunction {
  let v = cache.get(schema);
  if (!v) {
    v = instance.compile(schema);
    cache.set(schema, v);
  }
  return v;
}

/** What is wrong with the value, briefly (corrections.ts), for the correction message. */
function explain(request: StructuredRequest, value: unknown): string {
  const validate = compiled(ajv, explaining, request.schema);
  validate(value);
  return briefCorrection(validate.errors ?? [], value, request.schema);
}
