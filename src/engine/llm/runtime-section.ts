/**
 * An llm section sent at runtime (PUT /settings/llm, or replace() on an engine built from a config)
 * may not make the server hand its own secrets to an endpoint the caller chose:
 * - a secret reference (api_key, header values) must be one the operator allowed in
 *   `secrets.runtime_allowed` (config/runtime-secrets.ts);
 * - an agent with no api_key is sent the provider's standard key variable (OPENAI_API_KEY...): that
 *   goes to the provider's own endpoint only, unless the operator allowed that variable too.
 */
import type { ConfigProblem } from '../../config/config-error';
import type { RuntimeSecretPolicy } from '../../config/runtime-secrets';
import { LlmSectionSchema } from '../../config/schema';
import type { ProviderRegistry } from './providers/registry';
import { agentPath, type AgentSpec, type LlmSectionSpec } from './section';

export function runtimeSectionProblems(
  raw: unknown,
  spec: LlmSectionSpec,
  registry: ProviderRegistry,
  policy: RuntimeSecretPolicy,
): ConfigProblem[] {
  const problems = policy.problems(LlmSectionSchema, raw, 'llm');
  const defaults = spec.agents.find((a) => a.name === spec.defaultAgent);
  for (const agent of spec.agents) {
    // An agent with the default's provider and endpoint shares its verdict, reported once.
    if (agent !== defaults && defaults && sameTarget(agent, defaults)) continue;
    const variable = registry.get(agent.provider).keyVariable;
    const endpoint = registry.get(agent.provider).defaultBaseUrl;
    if (agent.apiKey !== null || !variable || agent.baseUrl === null) continue;
    if (endpoint !== null && sameUrl(agent.baseUrl, endpoint)) continue;
    if (policy.allows('env', variable)) continue;
    problems.push({
      path: agentPath(spec, agent.name, 'api_key'),
      message:
        `refused: no api_key is given, so the server's ${variable} would be sent to base_url; a section sent at runtime ` +
        `may send it only to the provider's own endpoint${endpoint ? ` (${endpoint})` : ''}. Give api_key, ` +
        `or the operator allows it in the config file with secrets.runtime_allowed: [env:${variable}]`,
    });
  }
  return problems;
}

function sameTarget(a: AgentSpec, b: AgentSpec): boolean {
  return a.provider === b.provider && a.baseUrl === b.baseUrl && a.apiKey === b.apiKey;
}

function sameUrl(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}
