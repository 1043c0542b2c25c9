/**
 * Whether each agent's model endpoint answers at all, asked once at start-up so a newcomer with no
 * model running is told what to do before the first question. A GET of the endpoint's model list,
 * bounded by a short timeout: any HTTP answer (even 401 or 404) means the endpoint is there; no
 * model is called and nothing is paid.
 */
import type { LlmSet } from './llm-set';
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
  const seen = new Map<string, Promise<boolean>>();
  return Promise.all(
    set.agentNames().map(async (name) => {
      const entry = set.entry(name);
      let endpoint: string | null = null;
      try {
        const { agent } = set.client(name);
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
      const url = `${endpoint.replace(/\/+$/, '')}/models`;
      let probe = seen.get(url);
      if (!probe) seen.set(url, (probe = answers(url)));
      const reachable = await probe;
      return {
        agent: name,
        provider: entry.provider,
        model: entry.model,
        endpoint,
        reachable,
        hint: reachable ? null : unreachableHint(entry),
      };
    }),
  );
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await res.body?.cancel();
    return true;
  } catch {
    return false;
  }
}
