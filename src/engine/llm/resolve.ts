/**
 * Resolves one agent's secrets into the settings a client is built from, and computes the client
 * cache key. A key that does not resolve is returned as a problem, not thrown: at engine creation
 * it must not stop the build (the check reports it); on replace the service turns it into a 422.
 */
import { createHash } from 'node:crypto';
import { SecretResolutionError, type SecretManager } from '../../config/secrets';
import { LlmError } from './errors';
import { ollamaBaseUrl } from './providers/ollama/settings';
import type { ProviderDefinition, ResolvedAgent } from './providers/provider';
import type { ProviderRegistry } from './providers/registry';
import type { AgentSpec } from './section';

export type Resolution =
  | { readonly ok: true; readonly agent: ResolvedAgent; readonly cacheKey: string }
  | { readonly ok: false; readonly error: LlmError };

export function resolveAgent(
  spec: AgentSpec,
  registry: ProviderRegistry,
  secrets: SecretManager,
): Resolution {
  const def = registry.get(spec.provider);
  const missing = registry.missingPackages(def);
  if (missing.length) {
    return fail(
      'LLM_PROVIDER_NOT_INSTALLED',
      `agent '${spec.name}' uses provider '${spec.provider}', whose client library is not installed: ${def.installHint ?? `install ${missing.join(', ')}`}`,
      spec,
    );
  }
  const path = (field: string) => `llm agent '${spec.name}' ${field}`;
  let apiKey: string | null | undefined;
  const headers: Record<string, string> = {};
  try {
    apiKey =
      spec.apiKey !== null ? secrets.resolve(spec.apiKey, path('api_key')) : keyFromEnvironment(def, secrets);
    for (const [name, value] of Object.entries(spec.headers))
      headers[name] = secrets.resolve(value, path(`header '${name}'`));
  } catch (err) {
    if (!(err instanceof SecretResolutionError)) throw err;
    return fail(
      'LLM_KEY_MISSING',
      `agent '${spec.name}' (provider '${spec.provider}'): ${err.message}`,
      spec,
    );
  }
  if (apiKey === undefined) {
    return fail(
      'LLM_KEY_MISSING',
      `agent '${spec.name}' uses provider '${spec.provider}', which needs an API key: set the environment variable ${def.keyVariable} or api_key in the llm section`,
      spec,
    );
  }
  const agent: ResolvedAgent = {
    name: spec.name,
    provider: spec.provider,
    model: spec.model,
    temperature: spec.temperature,
    apiKey,
    // Ollama's base URL is its server root; each wire derives its own endpoint from it.
    baseUrl: spec.ollama
      ? ollamaBaseUrl(spec.baseUrl, spec.ollama.wire)
      : (spec.baseUrl ?? def.defaultBaseUrl),
    maxTokens: spec.maxTokens,
    timeoutS: spec.timeoutS,
    maxRetries: spec.maxRetries,
    headers,
    structuredOutput: spec.structuredOutput ?? def.structuredOutput,
    parseRetries: spec.parseRetries,
    ollama: spec.ollama,
  };
  return { ok: true, agent, cacheKey: clientCacheKey(agent) };
}

/**
 * The provider's standard variable, read when the client is built. `undefined` means a key is
 * needed and missing; a keyless provider gets its placeholder (or null for a keyless plugin).
 */
function keyFromEnvironment(def: ProviderDefinition, secrets: SecretManager): string | null | undefined {
  if (!def.keyVariable) return def.placeholderKey;
  return secrets.fromEnv(def.keyVariable);
}

/**
 * Everything the client depends on, with the key and header values only as SHA-256 digests, so
 * the cache key can be kept, compared and logged without holding a secret. Agent name, parse
 * retries and structured-output method are not client settings: agents differing only in those
 * share one client.
 */
export function clientCacheKey(a: ResolvedAgent): string {
  const digest = (v: string) => createHash('sha256').update(v).digest('hex');
  const material = {
    provider: a.provider,
    model: a.model,
    temperature: a.temperature,
    base_url: a.baseUrl,
    max_tokens: a.maxTokens,
    timeout_s: a.timeoutS,
    max_retries: a.maxRetries,
    ollama: a.ollama,
    api_key: a.apiKey === null ? null : digest(a.apiKey),
    headers: Object.keys(a.headers)
      .sort()
      .map((name) => [name.toLowerCase(), digest(a.headers[name] ?? '')]),
  };
  return digest(JSON.stringify(material));
}

function fail(
  code: 'LLM_KEY_MISSING' | 'LLM_PROVIDER_NOT_INSTALLED',
  message: string,
  spec: AgentSpec,
): Resolution {
  return {
    ok: false,
    error: new LlmError(code, message, { provider: spec.provider, details: { agent: spec.name } }),
  };
}
