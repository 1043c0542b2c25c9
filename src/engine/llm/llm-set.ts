/**
 * One immutable set of agents and their clients: built at engine creation and on every replace,
 * with no model call. A run acquires the current set once and uses only it, so a replace in the
 * middle of a run never mixes two sets. An agent whose key or client library is missing is kept
 * as a problem: the set still builds, and using that agent raises the problem.
 */
import type { ErrorCode } from '../errors';
import type { CachedClient, ClientCache } from './client-cache';
import { LlmError } from './errors';
import type { PriceTable } from './prices';
import type { ResolvedAgent } from './providers/provider';
import type { ProviderRegistry } from './providers/registry';
import { resolveAgent } from './resolve';
import type { AgentSpec, LlmSectionSpec, PlannerFormat } from './section';
import {
  structuredCall,
  textCall,
  type CallOptions,
  type StructuredRequest,
  type StructuredResult,
  type TextRequest,
  type TextResult,
} from './structured';
import type { SecretManager } from '../../config/secrets';

/** Agent entry of list/get (spec section 2). Never holds a key. */
export interface AgentEntry {
  provider: string;
  model: string;
  temperature: number | null;
  inherited: boolean;
}

export interface AgentProblem {
  agent: string;
  provider: string;
  code: ErrorCode;
  message: string;
}

interface Slot {
  readonly spec: AgentSpec;
  readonly agent: ResolvedAgent | null;
  readonly client: CachedClient | null;
  readonly problem: LlmError | null;
}

let nextSetId = 1;

export class LlmSet {
  readonly id = nextSetId++;
  private readonly slots: ReadonlyMap<string, Slot>;
  private refs = 0;
  private retired = false;

  private constructor(
    slots: Slot[],
    readonly defaultAgent: string,
    readonly prices: PriceTable,
    private readonly cache: ClientCache,
  ) {
    this.slots = new Map(slots.map((s) => [s.spec.name, s]));
  }

  /**
   * Builds a set: resolves each agent's secrets and takes its client from the cache. Problems
   * (missing key, missing library) are kept per agent; `strict` turns them into a thrown list
   * instead. On any throw every client already taken is given back, so nothing leaks.
   */
  static build(args: {
    spec: LlmSectionSpec;
    registry: ProviderRegistry;
    secrets: SecretManager;
    cache: ClientCache;
    prices: PriceTable;
    strict: boolean;
  }): LlmSet {
    const slots: Slot[] = [];
    const taken: CachedClient[] = [];
    try {
      const problems: LlmError[] = [];
      for (const spec of args.spec.agents) {
        const r = resolveAgent(spec, args.registry, args.secrets);
        if (!r.ok) {
          problems.push(r.error);
          slots.push({ spec, agent: null, client: null, problem: r.error });
          continue;
        }
        const def = args.registry.get(spec.provider);
        try {
          const client = args.cache.acquire(r.cacheKey, () => def.create(r.agent));
          taken.push(client);
          slots.push({ spec, agent: r.agent, client, problem: null });
        } catch (err) {
          const problem =
            err instanceof LlmError
              ? err
              : new LlmError(
                  'LLM_PROVIDER_UNSUPPORTED',
                  `agent '${spec.name}': provider '${spec.provider}' could not build a client: ${String(err)}`,
                  {
                    provider: spec.provider,
                  },
                );
          problems.push(problem);
          slots.push({ spec, agent: null, client: null, problem });
        }
      }
      if (args.strict && problems.length) throw new LlmSetProblems(problems);
      return new LlmSet(slots, args.spec.defaultAgent, args.prices, args.cache);
    } catch (err) {
      for (const c of taken) args.cache.release(c);
      throw err;
    }
  }

  /** Agent names, default first. */
  agentNames(): string[] {
    return [...this.slots.keys()];
  }

  has(agent: string): boolean {
    return this.slots.has(agent);
  }

  entry(agent: string): AgentEntry {
    const s = this.slot(agent);
    return {
      provider: s.spec.provider,
      model: s.spec.model,
      temperature: s.spec.temperature,
      inherited: s.spec.inherited,
    };
  }

  /** How the agent answers when it plans (the default agent's setting when it has no slot). */
  plannerFormat(agent: string): PlannerFormat {
    return this.slot(agent).spec.plannerFormat;
  }

  /** `provider/model` of an agent, as LLMChange reports it. */
  label(agent: string): string {
    const s = this.slot(agent);
    return `${s.spec.provider}/${s.spec.model}`;
  }

  /** What the engine check reports: agents whose client could not be built, and why. */
  problems(): AgentProblem[] {
    return [...this.slots.values()]
      .filter((s) => s.problem)
      .map((s) => ({
        agent: s.spec.name,
        provider: s.spec.provider,
        code: s.problem!.code,
        message: s.problem!.message,
      }));
  }

  /** Configured models (to check that each has a price when a cost cap is set). */
  models(): string[] {
    return [...new Set([...this.slots.values()].map((s) => s.spec.model))];
  }

  /** An agent's resolved settings and client; unknown names fall back to the default agent. */
  client(agent: string): { agent: ResolvedAgent; client: CachedClient } {
    const s = this.slot(agent);
    if (s.problem) throw s.problem;
    if (this.retired) {
      throw new LlmError('LLM_CLIENT_CLOSED', `LLM set ${this.id} was released; acquire the current set`, {
        provider: s.spec.provider,
      });
    }
    return { agent: s.agent!, client: s.client! };
  }

  /** A structured answer from `agent`, validated against `request.schema`. */
  async structured<T = unknown>(
    agent: string,
    request: StructuredRequest,
    options: CallOptions = {},
  ): Promise<StructuredResult<T>> {
    const c = this.client(agent);
    return structuredCall<T>(
      { agent: c.agent, client: c.client.client, prices: this.prices },
      request,
      options,
    );
  }

  /** A text answer; with `onDelta` it streams, and reports usage the same as unstreamed. */
  async text(agent: string, request: TextRequest, options: CallOptions = {}): Promise<TextResult> {
    const c = this.client(agent);
    return textCall({ agent: c.agent, client: c.client.client, prices: this.prices }, request, options);
  }

  /** `text` streaming each piece to `onDelta`. */
  async streamText(
    agent: string,
    request: TextRequest,
    onDelta: (text: string) => void,
    options: CallOptions = {},
  ): Promise<TextResult> {
    return this.text(agent, request, { ...options, onDelta });
  }

  /** The clients of this set (for tests and the engine check). */
  clients(): CachedClient[] {
    return [...new Set([...this.slots.values()].flatMap((s) => (s.client ? [s.client] : [])))];
  }

  /** @internal reference counting by the service: the current set and each run hold one. */
  hold(): void {
    this.refs += 1;
  }

  /** @internal Gives the clients back to the cache when the last holder lets go. */
  unhold(): void {
    this.refs -= 1;
    if (this.refs <= 0 && !this.retired) {
      this.retired = true;
      for (const s of this.slots.values()) if (s.client) this.cache.release(s.client);
    }
  }

  private slot(agent: string): Slot {
    const s = this.slots.get(agent) ?? this.slots.get(this.defaultAgent);
    if (!s) throw new LlmError('LLM_AGENT_UNKNOWN', `no agent '${agent}' and no default agent`);
    return s;
  }
}

/** Every agent problem of a strict build (replace), for the service to turn into a ConfigError. */
export class LlmSetProblems extends Error {
  constructor(readonly problems: LlmError[]) {
    super(problems.map((p) => p.message).join('; '));
    this.name = 'LlmSetProblems';
  }
}
