/**
 * The llm section, from the config file or from PUT /settings/llm, checked the same way: strict
 * keys against `LlmSectionSchema` (an unknown key proposes the closest one), references only in
 * secret fields, providers through the registry. The result keeps secret references unresolved:
 * values are read only when clients are built (resolve.ts), and the environment is never copied in.
 */
import { ConfigError, type ConfigProblem } from '../../config/config-error';
import { LlmSectionSchema, type AgentOverride, type LlmSection } from '../../config/schema';
import { validateStrict } from '../../config/strict-validate';
import { LlmError } from './errors';
import type { ConfigPriceRow } from './prices';
import { ollamaKeyProblems, ollamaSettings, type OllamaSettings } from './providers/ollama/settings';
import type { StructuredMethod } from './providers/provider';
import type { ProviderRegistry } from './providers/registry';

export const DEFAULT_AGENT = 'default';
export const DEFAULT_TEMPERATURE = 0;

export type PlannerFormat = 'sql' | 'plan';
/** The model drafts SQL (short, familiar to every model); the service imports it into a plan. */
export const DEFAULT_PLANNER_FORMAT: PlannerFormat = 'sql';
export const DEFAULT_PARSE_RETRIES = 1;

/**
 * The llm section used when the config has none: a local ollama server, which needs no key, so
 * the engine builds with no network and no secret. Nothing is called until a question is asked;
 * then an absent server answers PROVIDER_UNAVAILABLE naming the endpoint. The model is the one
 * config/embedded-default.yaml names: a small code model that runs on a laptop's CPU, answering
 * under Ollama's JSON-schema decoding on the native wire (README, The llm section).
 */
export const DEFAULT_LLM_SECTION: LlmSection = { provider: 'ollama', model: 'qwen2.5-coder:3b' };

/** One agent's effective settings (default merged with its override); secrets still unresolved. */
export interface AgentSpec {
  readonly name: string;
  /** Canonical provider name. */
  readonly provider: string;
  readonly model: string;
  readonly temperature: number | null;
  /** A literal key or a `${source:key}` reference; null reads the provider's key variable. */
  readonly apiKey: string | null;
  readonly baseUrl: string | null;
  readonly structuredOutput: StructuredMethod | null;
  readonly parseRetries: number;
  /** How the planner answers when this agent plans: a SQL draft (default) or the plan itself. */
  readonly plannerFormat: PlannerFormat;
  readonly maxTokens: number | null;
  readonly timeoutS: number | null;
  readonly maxRetries: number | null;
  /** Values may be references. */
  readonly headers: Readonly<Record<string, string>>;
  /** The agent sets nothing of its own and runs on the default agent's settings. */
  readonly inherited: boolean;
  /** Provider `ollama` only: wire, context cap, keep_alive (defaults applied). */
  readonly ollama: OllamaSettings | null;
}

export interface LlmSectionSpec {
  /** Default agent first. */
  readonly agents: readonly AgentSpec[];
  readonly defaultAgent: string;
  readonly prices: Readonly<Record<string, ConfigPriceRow>>;
}

const AGENT_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Validates an llm section and computes every agent's effective settings. Throws ConfigError. */
export function parseLlmSection(
  raw: unknown,
  registry: ProviderRegistry,
  source = 'llm section',
): LlmSectionSpec {
  const problems: ConfigProblem[] = validateStrict(LlmSectionSchema, raw, 'llm');
  if (problems.length) throw new ConfigError(problems, source);
  const section = raw as LlmSection;
  const defaultName = section.name ?? DEFAULT_AGENT;
  if (!AGENT_NAME.test(defaultName))
    problems.push({ path: 'llm.name', message: 'agent names use letters, digits, _ and - (1-64)' });

  const { agents: overrides = {}, prices = {}, ...defaults } = section;
  const specs: AgentSpec[] = [];
  const entries: [string, string, AgentOverride][] = [
    [defaultName, 'llm', defaults],
    ...Object.entries(overrides).map(([name, o]): [string, string, AgentOverride] => [
      name,
      `llm.agents.${name}`,
      o,
    ]),
  ];
  const seen = new Set<string>();
  for (const [name, path, override] of entries) {
    if (seen.has(name)) {
      problems.push({
        path,
        message: `agent '${name}' is the default agent's name; configure it at the top level`,
      });
      continue;
    }
    seen.add(name);
    if (!AGENT_NAME.test(name))
      problems.push({ path, message: 'agent names use letters, digits, _ and - (1-64)' });
    if (path !== 'llm' && override.name !== undefined && override.name !== name) {
      problems.push({ path: `${path}.name`, message: `must equal the agent's key '${name}' or be left out` });
    }
    const merged: AgentOverride = path === 'llm' ? defaults : { ...defaults, ...override };
    const spec = toSpec(name, merged, path === 'llm' ? false : isEmptyOverride(override));
    const providerPath = override.provider !== undefined ? `${path}.provider` : 'llm.provider';
    let canonical: string;
    try {
      canonical = registry.canonical(String(merged.provider));
    } catch (err) {
      if (path === 'llm' || override.provider !== undefined)
        problems.push({ path: providerPath, message: (err as LlmError).message });
      continue;
    }
    const def = registry.get(canonical);
    // A provider whose current API refuses sampling parameters gets none unless the agent sets one.
    if (merged.temperature === undefined && def.defaultTemperature !== undefined)
      spec.temperature = def.defaultTemperature;
    if (def.baseUrlRequired && !spec.baseUrl) {
      problems.push({
        path: `${path}.base_url`,
        message: `provider '${merged.provider}' needs base_url (the server's endpoint, e.g. http://127.0.0.1:8080/v1)`,
      });
    }
    const ollama = canonical === 'ollama' ? ollamaSettings(merged, String(merged.provider)) : null;
    problems.push(...ollamaKeyProblems(override, canonical, ollama, path));
    specs.push({ ...spec, provider: canonical, ollama });
  }
  if (problems.length) throw new ConfigError(problems, source);
  return { agents: specs, defaultAgent: defaultName, prices };
}

function toSpec(
  name: string,
  s: AgentOverride,
  inherited: boolean,
): Mutable<Omit<AgentSpec, 'ollama'>, 'temperature'> {
  return {
    name,
    provider: String(s.provider),
    model: String(s.model),
    temperature: s.temperature === undefined ? DEFAULT_TEMPERATURE : s.temperature,
    apiKey: s.api_key ?? null,
    baseUrl: s.base_url ?? null,
    structuredOutput: s.structured_output ?? null,
    parseRetries: s.parse_retries ?? DEFAULT_PARSE_RETRIES,
    plannerFormat: s.planner_format ?? DEFAULT_PLANNER_FORMAT,
    maxTokens: s.max_tokens ?? null,
    timeoutS: s.timeout_s ?? null,
    maxRetries: s.max_retries ?? null,
    headers: { ...(s.headers ?? {}) },
    inherited,
  };
}

function isEmptyOverride(o: AgentOverride): boolean {
  return Object.keys(o).every((k) => k === 'name');
}

type Mutable<T, K extends keyof T> = Omit<T, K> & { -readonly [P in K]: T[P] };
