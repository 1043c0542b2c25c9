/**
 * The engine's LLM operations (spec 4.16): list, get, providers, prices, replace; plus the run
 * side: `acquire()` the current set once at a run's start and `release()` it at the end. Plain
 * TypeScript, usable without HTTP; the engine owns one instance.
 */
import type { LlmChanges } from '../events/operator-events';
import { ConfigError, type ConfigProblem } from '../../config/config-error';
import { redact, redactDeep } from '../../config/redact';
import type { RuntimeSecretPolicy } from '../../config/runtime-secrets';
import { SecretManager } from '../../config/secrets';
import { NotFoundError } from '../errors';
import { getLogger } from '../logging/logger';
import type { AuditSink, LlmLogger } from './audit';
import { ClientCache, CLIENT_CACHE_SIZE } from './client-cache';
import type { LlmError } from './errors';
import { LlmSet, LlmSetProblems, type AgentEntry, type AgentProblem } from './llm-set';
import { PriceTable, type PricesView } from './prices';
import { discoverPlugins, type DiscoveryResult } from './providers/plugin-discovery';
import { ProviderRegistry, type ProviderEntry } from './providers/registry';
import { runtimeSectionProblems } from './runtime-section';
import { agentPath, DEFAULT_LLM_SECTION, parseLlmSection, type LlmSectionSpec } from './section';

export type ReplaceVia = 'python' | 'api' | 'playground' | (string & {});

/** Who asked for a replace; user_id and roles are logged and audited, never a key. */
export interface LlmCaller {
  readonly user_id?: string | null;
  readonly roles?: readonly string[];
}

/** Response of replace (spec section 2). */
export interface LLMChange {
  by: { via: string; user_id?: string | null; roles?: string[] };
  /** Agent name to `provider/model` before and after (null: the agent did not exist then). */
  changes: LlmChanges;
}

export interface LlmServiceOptions {
  /** The llm section as read from the config (a mapping). null or absent: DEFAULT_LLM_SECTION. */
  readonly llm?: unknown;
  readonly secrets?: SecretManager;
  readonly registry?: ProviderRegistry;
  /** Scans `<dir>/node_modules` for packages declaring provider plugins (true: the working directory). */
  readonly discoverPlugins?: boolean | string;
  readonly logger?: LlmLogger;
  readonly audit?: AuditSink;
  /** `settings.pipeline.max_cost_usd`: when set, every configured model must have a price. */
  readonly maxCostUsd?: number | null;
  readonly cacheSize?: number;
  /** Names the section in error messages (the config file's path). */
  readonly source?: string;
  /**
   * What a section given to replace() may reference (`secrets.runtime_allowed`). The engine always
   * sets it; absent (a service built by hand from trusted code), replace is as unrestricted as the
   * constructor.
   */
  readonly runtimeSecrets?: RuntimeSecretPolicy;
}

export class LlmService {
  readonly registry: ProviderRegistry;
  readonly discovered: DiscoveryResult | null;
  private readonly secrets: SecretManager;
  private readonly cache: ClientCache;
  private readonly log: LlmLogger;
  private readonly auditSink: AuditSink | null;
  private readonly maxCostUsd: number | null;
  private readonly runtimeSecrets: RuntimeSecretPolicy | null;
  private currentSet: LlmSet;
  private closed = false;

  /** Builds the first set. Throws ConfigError for an invalid section; a missing key is only a problem (see check). */
  constructor(options: LlmServiceOptions = {}) {
    this.registry = options.registry ?? new ProviderRegistry();
    this.secrets = options.secrets ?? new SecretManager();
    this.cache = new ClientCache(options.cacheSize ?? CLIENT_CACHE_SIZE);
    this.log = options.logger ?? getLogger('nl2sql.llm');
    this.auditSink = options.audit ?? null;
    this.maxCostUsd = options.maxCostUsd ?? null;
    this.runtimeSecrets = options.runtimeSecrets ?? null;
    this.discovered = options.discoverPlugins
      ? discoverPlugins(
          this.registry,
          typeof options.discoverPlugins === 'string' ? options.discoverPlugins : process.cwd(),
        )
      : null;
    for (const r of this.discovered?.rejected ?? []) {
      this.log.warn('provider plugin rejected', { provider: r.name, package: r.package, reason: r.reason });
    }
    const source = options.source ?? 'llm section';
    const spec = parseLlmSection(options.llm ?? DEFAULT_LLM_SECTION, this.registry, source);
    this.currentSet = this.buildSet(spec, false, source);
    this.currentSet.hold();
  }

  /** Agent entries, default first. Never a key. */
  list(): Record<string, AgentEntry> {
    const set = this.currentSet;
    return Object.fromEntries(set.agentNames().map((name) => [name, set.entry(name)]));
  }

  /** One agent entry; NotFoundError (HTTP 404) naming the valid agents for another name. */
  get(agent: string): AgentEntry {
    const set = this.currentSet;
    if (!set.has(agent)) {
      throw new NotFoundError(`unknown agent '${agent}'; valid agents: ${set.agentNames().join(', ')}`, {
        agent,
        valid_agents: set.agentNames(),
      });
    }
    return set.entry(agent);
  }

  providers(): ProviderEntry[] {
    return this.registry.list((variable) => Boolean(this.secrets.fromEnv(variable)));
  }

  prices(): PricesView {
    return this.currentSet.prices.view();
  }

  /** Agents whose client cannot be built (missing key, library not installed): what the engine check reports. */
  check(): AgentProblem[] {
    return this.currentSet.problems();
  }

  /** The current set, held until `release`. A run calls this once at its start. */
  acquire(): LlmSet {
    this.assertOpen();
    const set = this.currentSet;
    set.hold();
    return set;
  }

  release(set: LlmSet): void {
    set.unhold();
  }

  /** The current set without holding it (for listings; a run uses acquire). */
  current(): LlmSet {
    return this.currentSet;
  }

  /**
   * Validates `llm` as the config file's section, resolves every key, builds the new clients and
   * swaps the set in one step. Throws ConfigError (HTTP 422) and changes nothing on any problem.
   * Runs holding the old set finish on it; its clients are closed when evicted and unheld.
   */
  replace(llm: unknown, by: LlmCaller | null = null, via: ReplaceVia = 'python'): LLMChange {
    this.assertOpen();
    const source = via === 'api' ? 'llm settings (PUT /api/v1/settings/llm)' : 'llm section';
    const spec = parseLlmSection(llm, this.registry, source);
    let secrets = this.secrets;
    if (this.runtimeSecrets) {
      const refused = runtimeSectionProblems(llm, spec, this.registry, this.runtimeSecrets);
      if (refused.length) throw new ConfigError(refused, source);
      secrets = this.secrets.restrictedTo(this.runtimeSecrets);
    }
    const next = this.buildSet(spec, true, source, secrets);
    const previous = this.currentSet;
    next.hold();
    this.currentSet = next;
    previous.unhold();

    const change: LLMChange = {
      by: { via, ...(by ? { user_id: by.user_id ?? null, roles: [...(by.roles ?? [])] } : {}) },
      changes: diff(previous, next),
    };
    const summary = Object.entries(change.changes)
      .map(([agent, c]) => `${agent}: ${c.old ?? '-'} -> ${c.new ?? '-'}`)
      .join(', ');
    this.log.info(
      redact(`LLM replaced via ${via}${summary ? `: ${summary}` : ' (no provider or model changed)'}`),
      {
        via,
        user_id: by?.user_id ?? null,
        roles: [...(by?.roles ?? [])],
        changes: redactDeep(change.changes),
      },
    );
    this.auditSink?.audit(
      'llm.changed',
      redactDeep({
        via,
        user_id: by?.user_id ?? null,
        roles: [...(by?.roles ?? [])],
        changes: change.changes,
      }),
    );
    return change;
  }

  /** Closes every client, held or not. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.cache.closeAll();
  }

  /** @internal for tests and the engine check */
  get clientCache(): ClientCache {
    return this.cache;
  }

  private buildSet(
    spec: LlmSectionSpec,
    strict: boolean,
    source: string,
    secrets: SecretManager = this.secrets,
  ): LlmSet {
    const prices = new PriceTable(spec.prices);
    if (this.maxCostUsd !== null) {
      const unpriced = spec.agents.filter((a) => !prices.has(a.model));
      if (unpriced.length) {
        throw new ConfigError(
          unpriced.map((a) => ({
            path: agentPath(spec, a.name, 'model'),
            message: `settings.pipeline.max_cost_usd is set but model '${a.model}' has no price; add it under llm.prices (input and output in USD per million tokens) or unset the cap`,
          })),
          source,
        );
      }
    }
    try {
      return LlmSet.build({
        spec,
        registry: this.registry,
        secrets,
        cache: this.cache,
        prices,
        strict,
      });
    } catch (err) {
      if (!(err instanceof LlmSetProblems)) throw err;
      throw new ConfigError(
        err.problems.map((p) => toProblem(spec, p)),
        source,
      );
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new ConfigError([{ path: 'llm', message: 'the engine is closed' }], 'llm section');
  }
}

function diff(previous: LlmSet, next: LlmSet): LLMChange['changes'] {
  const names = [...new Set([...next.agentNames(), ...previous.agentNames()])];
  const out: LLMChange['changes'] = {};
  for (const name of names) {
    // An agent missing from one set runs on that set's default: compare effective models.
    const before = previous.has(name) || previous.has(previous.defaultAgent) ? previous.label(name) : null;
    const after = next.label(name);
    if (before !== after) out[name] = { old: before, new: after };
  }
  return out;
}

function toProblem(spec: LlmSectionSpec, error: LlmError): ConfigProblem {
  const named = (error.details as { agent?: unknown }).agent;
  const agent = typeof named === 'string' ? named : spec.defaultAgent;
  const field = error.code === 'LLM_KEY_MISSING' ? 'api_key' : 'provider';
  return { path: agentPath(spec, agent, field), message: error.message };
}
