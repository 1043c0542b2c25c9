/**
 * What a provider is to the engine: a definition in the registry, and the model clients it
 * creates. Built-in wires and plugins (interface version 2) implement the same `ModelClient`.
 */
import type { TokenUsage } from '../usage';
import type { OllamaSettings } from './ollama/settings';

export type StructuredMethod = 'tool_calling' | 'json_schema' | 'json_mode';
export const STRUCTURED_METHODS: readonly StructuredMethod[] = ['tool_calling', 'json_schema', 'json_mode'];

export type JsonSchema = Record<string, unknown>;

/** The key sent by a keyless provider's client (an SDK wants one; a local server takes any). */
export const PLACEHOLDER_API_KEY = 'not-needed';

/** One agent's settings with every secret resolved: what a client is built from. Never logged. */
export interface ResolvedAgent {
  readonly name: string;
  /** Canonical provider name (aliases already mapped). */
  readonly provider: string;
  readonly model: string;
  /** null: no temperature parameter is sent. */
  readonly temperature: number | null;
  readonly apiKey: string | null;
  readonly baseUrl: string | null;
  readonly maxTokens: number | null;
  readonly timeoutS: number | null;
  readonly maxRetries: number | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly structuredOutput: StructuredMethod;
  readonly parseRetries: number;
  /** The `ollama` preset's wire, context cap and keep_alive; null for every other provider. */
  readonly ollama: OllamaSettings | null;
}

export interface ChatMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string;
}

/** Asks for a structured answer with one of the three methods. */
export interface OutputSpec {
  readonly method: StructuredMethod;
  readonly schema: JsonSchema;
  /** Tool / schema name (letters, digits, _ and -). */
  readonly name: string;
  readonly description?: string;
}

export interface ModelRequest {
  readonly system: string;
  readonly messages: readonly ChatMessage[];
  /** Absent: a plain text answer. */
  readonly output?: OutputSpec;
  /** Present: the call streams and this receives each piece of text (or of tool arguments). */
  readonly onDelta?: (text: string) => void;
  readonly signal?: AbortSignal;
  /** The agent asking (agents with equal settings share a client), for error messages. */
  readonly agent?: string;
}

export interface ModelResponse {
  /** The answer's text, or the raw JSON text of the tool arguments. */
  readonly text: string;
  /** Tool arguments already decoded by the wire (after unwrapping), when the answer was a tool call. */
  readonly toolArguments?: unknown;
  /** null when the provider reported no usage. */
  readonly usage: TokenUsage | null;
  /** The model that answered, as the provider names it. */
  readonly model: string;
}

/**
 * A client bound to one agent's resolved settings. `complete` throws an LlmError with a
 * PROVIDER_* code for every provider failure. `close` aborts requests in flight and refuses new ones.
 */
export interface ModelClient {
  complete(request: ModelRequest): Promise<ModelResponse>;
  close(): Promise<void>;
}

/**
 * A provider plugin, interface version 2. `create` gets the agent's resolved settings and returns
 * a client; `requires` lists the packages it needs (checked before `create`, `install_hint` is
 * shown when one is missing); `api_key_env` is the standard key variable (null: no key needed).
 */
export interface ProviderPluginV2 {
  readonly interface_version: 2;
  readonly label: string;
  readonly api_key_env: string | null;
  readonly requires: readonly string[];
  readonly install_hint: string;
  readonly structured_output: StructuredMethod;
  create(agent: ResolvedAgent): ModelClient;
}

/** A provider as the registry holds it: built-in or plugin. */
export interface ProviderDefinition {
  readonly name: string;
  readonly label: string;
  /** Standard key variable; null for a provider needing no key. */
  readonly keyVariable: string | null;
  /** Without a key a placeholder is sent (openai_compatible, ollama on the OpenAI wire; the native wire sends none). */
  readonly placeholderKey: string | null;
  readonly defaultBaseUrl: string | null;
  readonly baseUrlRequired: boolean;
  readonly structuredOutput: StructuredMethod;
  /**
   * The temperature of an agent that sets none; absent: the section's default (0). Anthropic's
   * current API answers 400 to any temperature, top_p or top_k, so its default is null (none sent).
   */
  readonly defaultTemperature?: number | null;
  /** Packages the client needs; the provider is listed only when they are installed. */
  readonly requires: readonly string[];
  readonly installHint: string | null;
  readonly plugin: boolean;
  create(agent: ResolvedAgent): ModelClient;
}
