/**
 * Whether each agent's model endpoint answers at all, asked once at start-up so a newcomer with no
 * model running is told what to do before the first question. A GET of the endpoint's model list
 * (`<base>/models`; Ollama's native `<root>/api/tags`), bounded by a short timeout: any HTTP answer
 * (even 401 or 404) means the endpoint is there; no model is called and nothing is paid. Ollama's
 * list also tells whether the agent's model is pulled: when it is not, the endpoint is reachable
 * and the hint says what to pull.
 */
import type { LlmSet } from './llm-set';
import type { ResolvedAgent } from './providers/provider';
import { unreachableHint } from './providers/error-mapping';

const PROBE_TIMEOUT_MS = 1500;

export interface AgentReachability {
  readonly agent: string;
  readonly provider: string;
  readonly model: string;
  readonly endpoint: string | null;
  readonly reachable: boolean;
  /** What to do, when it is not reachable. */
  readonly hint: string | null;
}

/** Default endpoints of the SDKs, for agents without a base_url. */
const SDK_DEFAULTS: Readonly<Record<string, string>> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
};

export async function probeAgents(set: LlmSet): Promise<AgentReachability[]> {
  const seen = new Map<string, Promise<ProbeResult>>();
  return Promise.all(
    set.agentNames().map(async (name) => {
      const entry = set.entry(name);
      let endpoint: string | null = null;
      let agent: ResolvedAgent;
      try {
        agent = set.client(name).agent;
        endpoint = agent.baseUrl ?? SDK_DEFAULTS[agent.provider] ?? null;
      } catch {
        // An agent whose client cannot be built (a missing key) is reported by the key check.
        return {
          agent: name,
          provider: entry.provider,
          model: entry.model,
          endpoint,
          reachable: false,
          hint: null,
        };
      }
      if (!endpoint)
        return {
          agent: name,
          provider: entry.provider,
          model: entry.model,
          endpoint,
          reachable: true,
          hint: null,
        };
      const native = agent.ollama?.wire === 'native';
      const url = `${endpoint.replace(/\/+$/, '')}${native ? '/api/tags' : '/models'}`;
      let probe = seen.get(url);
      if (!probe) seen.set(url, (probe = answers(url)));
      const found = await probe;
      const missing = native && found.models !== null && !hasModel(found.models, agent.model);
      return {
        agent: name,
        provider: entry.provider,
        model: entry.model,
        endpoint,
        reachable: found.reachable,
        hint: !found.reachable
          ? unreachableHint(entry)
          : missing
            ? `Ollama at ${endpoint} answers but has no model '${agent.model}': run 'ollama pull ${agent.model}'.`
            : null,
      };
    }),
  );
}

interface ProbeResult {
  readonly reachable: boolean;
  /** The model names an Ollama `/api/tags` answer lists; null for any other answer. */
  readonly models: readonly string[] | null;
}

async function answers(url: string): Promise<ProbeResult> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    if (!res.ok || !url.endsWith('/api/tags')) {
      await res.body?.cancel();
      return { reachable: true, models: null };
    }
    const list = (await res.json().catch(() => null)) as { models?: unknown } | null;
    const models = Array.isArray(list?.models)
      ? list.models.flatMap((m: { name?: unknown; model?: unknown }) =>
          [m.name, m.model].filter((n): n is string => typeof n === 'string'),
        )
      : null;
    return { reachable: true, models };
  } catch {
    return { reachable: false, models: null };
  }
}

/** Ollama names a model without a tag as `<name>:latest`. */
function hasModel(models: readonly string[], model: string): boolean {
  const wanted = model.includes(':') ? model : `${model}:latest`;
  return models.includes(model) || models.includes(wanted);
}
