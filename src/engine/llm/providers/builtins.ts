/**
 * The built-in providers. `openrouter` is a preset of `openai_compatible`: the same client with
 * another default endpoint and key variable, no code path of its own. `ollama` (spec alias
 * `local_server`) speaks one of two wires (ollama/settings.ts): with `wire: openai` it is exactly
 * such a preset, at `<root>/v1`; with `wire: native`, the default for the name `ollama`, it speaks
 * Ollama's own chat API (ollama/native-wire.ts), which takes a context size and a JSON schema.
 */
import { LlmError } from '../errors';
import { PLACEHOLDER_API_KEY, type ProviderDefinition, type ResolvedAgent } from './provider';
import { AnthropicWireClient } from './anthropic-wire';
import { OllamaNativeClient } from './ollama/native-wire';
import { OLLAMA_ROOT_URL } from './ollama/settings';
import { OpenAiWireClient } from './openai-wire';

export const ANTHROPIC_PACKAGE = '@anthropic-ai/sdk';
export const OPENROUTER_BASE_URL = 'https://openrouter.ai/api/v1';
/** Ollama's server root, as Ollama documents it; the OpenAI-compatible wire adds `/v1`. */
export const OLLAMA_BASE_URL = OLLAMA_ROOT_URL;

/** The spec's neutral names, in the order of the canonical names they stand for. */
export const PROVIDER_ALIASES: Readonly<Record<string, string>> = {
  alpha: 'openai',
  beta: 'anthropic',
  alpha_compatible: 'openai_compatible',
  router: 'openrouter',
  local_server: 'ollama',
};

export type ModuleLoader = (id: string) => unknown;

export function builtInProviders(load: ModuleLoader): ProviderDefinition[] {
  const compatible = (
    name: string,
    label: string,
    keyVariable: string | null,
    defaultBaseUrl: string | null,
    structuredOutput: ProviderDefinition['structuredOutput'],
  ): ProviderDefinition => ({
    name,
    label,
    keyVariable,
    // A local or self-hosted server usually takes any key; the SDK still wants one to send.
    placeholderKey: keyVariable ? null : PLACEHOLDER_API_KEY,
    defaultBaseUrl,
    baseUrlRequired: defaultBaseUrl === null,
    structuredOutput,
    requires: ['openai'],
    installHint: 'npm install openai',
    plugin: false,
    create: (agent) => new OpenAiWireClient(agent, label, 'max_tokens'),
  });
  return [
    {
      name: 'openai',
      label: 'OpenAI',
      keyVariable: 'OPENAI_API_KEY',
      placeholderKey: null,
      defaultBaseUrl: null,
      baseUrlRequired: false,
      structuredOutput: 'tool_calling',
      requires: ['openai'],
      installHint: 'npm install openai',
      plugin: false,
      create: (agent) => new OpenAiWireClient(agent, 'OpenAI', 'max_completion_tokens'),
    },
    {
      name: 'anthropic',
      label: 'Anthropic',
      keyVariable: 'ANTHROPIC_API_KEY',
      placeholderKey: null,
      defaultBaseUrl: null,
      baseUrlRequired: false,
      structuredOutput: 'tool_calling',
      defaultTemperature: null,
      requires: [ANTHROPIC_PACKAGE],
      installHint: `npm install ${ANTHROPIC_PACKAGE}`,
      plugin: false,
      create: (agent: ResolvedAgent) => {
        // Loaded here, where a missing package is reported (it is an optional dependency).
        return new AnthropicWireClient(loadAnthropic(load, agent), agent, 'Anthropic');
      },
    },
    compatible('openai_compatible', 'OpenAI-compatible server', null, null, 'tool_calling'),
    compatible('openrouter', 'OpenRouter', 'OPENROUTER_API_KEY', OPENROUTER_BASE_URL, 'tool_calling'),
    // Local models vary in tool support; a JSON schema is what Ollama enforces by constrained
    // decoding, on either wire (`format` natively, `response_format` on /v1). An agent can still
    // pick another method.
    {
      ...compatible('ollama', 'Local server (ollama)', null, OLLAMA_BASE_URL, 'json_schema'),
      // resolve.ts gives the agent `<root>` (native) or `<root>/v1` (openai) as its base URL.
      create: (agent) =>
        agent.ollama?.wire === 'openai'
          ? new OpenAiWireClient(agent, 'Local server (ollama)', 'max_tokens')
          : new OllamaNativeClient(agent, 'Local server (ollama)'),
    },
  ];
}

export function loadAnthropic(
  load: ModuleLoader,
  agent: ResolvedAgent,
): typeof import('@anthropic-ai/sdk').default {
  let mod: unknown;
  try {
    mod = load(ANTHROPIC_PACKAGE);
  } catch {
    throw new LlmError(
      'LLM_PROVIDER_NOT_INSTALLED',
      `agent '${agent.name}' uses provider 'anthropic', whose client library is not installed: run 'npm install ${ANTHROPIC_PACKAGE}'`,
      { provider: 'anthropic' },
    );
  }
  const m = mod as { default?: unknown; Anthropic?: unknown };
  return (m.Anthropic ?? m.default ?? mod) as typeof import('@anthropic-ai/sdk').default;
}
