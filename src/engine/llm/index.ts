/**
 * The model layer: providers, the immutable LLM set, structured output, prices and usage.
 *
 * How the engine uses it
 * ----------------------
 *   const llm = new LlmService({ llm: config.llm, secrets, audit: engine.events, maxCostUsd });
 *   llm.check();                      // AgentProblem[]: agents with a missing key or library
 *
 * How a run uses it (read the set ONCE, at the run's start; release it at the end):
 *   const set = llm.acquire();
 *   try {
 *     const { value, calls } = await set.structured<Plan>('ast_planner',
 *       { system, messages: [{ role: 'user', content: question }], schema: PLAN_SCHEMA, schemaName: 'plan' },
 *       { node: 'ast_planner' });
 *     const { text, calls: more } = await set.streamText('answer_synthesizer',
 *       { system, messages }, (piece) => emit('answer.delta', piece), { node: 'answer_synthesizer' });
 *     usage = questionUsage([...calls, ...more], planCacheHits);   // QuestionUsage of the spec
 *   } catch (err) {
 *     // err is an LlmError: err.code (PROVIDER_* or MODEL_OUTPUT_INVALID...), err.toErrorEntry(node)
 *     // gives the pipeline error entry, err.calls the call records of the failed attempt(s).
 *   } finally {
 *     llm.release(set);
 *   }
 * An agent name the section does not configure runs on the default agent.
 *
 * Engine operations (spec 4.16): llm.list(), llm.get(agent) (NotFoundError listing agents),
 * llm.providers(), llm.prices(), llm.replace(section, { user_id, roles }, 'api') -> LLMChange
 * (ConfigError = HTTP 422, nothing changed), llm.close().
 *
 * With no llm section the default is DEFAULT_LLM_SECTION: provider `ollama` at 127.0.0.1:11434,
 * which needs no key, so the engine builds offline; a question then fails PROVIDER_UNAVAILABLE
 * naming the endpoint unless a local server runs there.
 */
export type { AuditSink, LlmLogger } from './audit';
export { MemoryAuditSink } from './audit';
export { CLIENT_CACHE_SIZE, ClientCache, type CachedClient } from './client-cache';
export { LlmError, PROVIDER_CODES, type LlmErrorCode, type ProviderErrorCode } from './errors';
export { LlmSet, type AgentEntry, type AgentProblem } from './llm-set';
export {
  LlmService,
  type LLMChange,
  type LlmCaller,
  type LlmServiceOptions,
  type ReplaceVia,
} from './llm-service';
export {
  PRICES_CHECKED_ON,
  PriceTable,
  type ConfigPriceRow,
  type ModelPrice,
  type PricesView,
} from './prices';
export { discoverPlugins, type DiscoveryResult } from './providers/plugin-discovery';
export {
  STRUCTURED_METHODS,
  type ChatMessage,
  type JsonSchema,
  type ModelClient,
  type ModelRequest,
  type ModelResponse,
  type ProviderPluginV2,
  type ResolvedAgent,
  type StructuredMethod,
} from './providers/provider';
export {
  PLUGIN_INTERFACE_VERSION,
  ProviderRegistry,
  type ProviderEntry,
  type RegistryOptions,
} from './providers/registry';
export { OLLAMA_BASE_URL, OPENROUTER_BASE_URL, PROVIDER_ALIASES } from './providers/builtins';
export {
  DEFAULT_AGENT,
  DEFAULT_LLM_SECTION,
  parseLlmSection,
  type AgentSpec,
  type LlmSectionSpec,
} from './section';
export type { CallOptions, StructuredRequest, StructuredResult, TextRequest, TextResult } from './structured';
export {
  callRecord,
  emptyUsage,
  questionUsage,
  sumUsage,
  type CallRecord,
  type QuestionUsage,
  type TokenUsage,
  type UsageRecord,
} from './usage';
