/**
 * The `ollama` preset's own settings: which wire it speaks, how large a context it may ask for,
 * and how long the server keeps the model loaded. Ollama documents its server root
 * (`http://127.0.0.1:11434`) as the base URL: the native wire posts to `<root>/api/chat`, the
 * OpenAI-compatible wire to `<root>/v1`; a configured URL ending in `/v1` (or `/api`) is read as
 * that root, so configs written for the OpenAI-compatible endpoint keep working.
 *
 * Which wire by default: the spec (4.16) defines `local_server` as a preset of the alpha wire, so a
 * config written in the spec's words keeps that wire; `ollama`, this project's own name, speaks
 * Ollama's native API, the only one that takes a context size and decodes under a JSON schema.
 * `wire:` on an agent picks either explicitly.
 */
import type { ConfigProblem } from '../../../../config/config-error';
import type { AgentOverride } from '../../../../config/schema';

export type OllamaWire = 'native' | 'openai';

export const OLLAMA_ROOT_URL = 'http://127.0.0.1:11434';
/**
 * The largest num_ctx a request asks for unless `num_ctx_max` says otherwise. Every step of a run
 * the service makes fits far below it; it bounds the memory a runaway prompt could make the server
 * reserve (its KV cache grows with num_ctx).
 */
export const DEFAULT_NUM_CTX_MAX = 16_384;
/**
 * keep_alive sent unless configured: the steps of one question come seconds apart, but questions
 * minutes apart; Ollama's own default (5 m) would reload a small model between most questions.
 */
export const DEFAULT_KEEP_ALIVE = '30m';

export interface OllamaSettings {
  readonly wire: OllamaWire;
  /** The cap of the context asked for per request (native wire). */
  readonly numCtxMax: number;
  /** Sent as `keep_alive`; null sends none (the server's OLLAMA_KEEP_ALIVE or 5 m holds). */
  readonly keepAlive: string | number | null;
}

const OWN_KEYS = ['wire', 'num_ctx_max', 'keep_alive'] as const;

/** The settings of an agent whose provider is `ollama`, from its merged fields. */
export function ollamaSettings(merged: AgentOverride, providerWord: string): OllamaSettings {
  return {
    wire: merged.wire ?? (providerWord === 'local_server' ? 'openai' : 'native'),
    numCtxMax: merged.num_ctx_max ?? DEFAULT_NUM_CTX_MAX,
    keepAlive: merged.keep_alive === undefined ? DEFAULT_KEEP_ALIVE : merged.keep_alive,
  };
}

/**
 * The Ollama keys an agent of another provider sets itself (not inherited from the default agent,
 * whose provider may be ollama): each is a mistake worth naming rather than a silent no-op.
 */
export function ollamaKeyProblems(
  own: AgentOverride,
  canonicalProvider: string,
  settings: OllamaSettings | null,
  path: string,
): ConfigProblem[] {
  const set = (key: (typeof OWN_KEYS)[number]) => own[key] !== undefined && own[key] !== null;
  if (canonicalProvider !== 'ollama') {
    return OWN_KEYS.filter(set).map((key) => ({
      path: `${path}.${key}`,
      message: `'${key}' applies to provider ollama (or local_server) only, not '${canonicalProvider}'`,
    }));
  }
  if (settings?.wire !== 'openai') return [];
  // Ollama's OpenAI-compatible endpoint takes neither: say so rather than drop them silently.
  return (['num_ctx_max', 'keep_alive'] as const).filter(set).map((key) => ({
    path: `${path}.${key}`,
    message: `'${key}' is sent on Ollama's native wire only; this agent uses wire 'openai' (set wire: native)`,
  }));
}

/** The server root of a configured Ollama URL: trailing `/`, `/v1` and `/api` removed. */
export function ollamaRoot(url: string): string {
  return url.replace(/\/+$/, '').replace(/\/(v1|api)$/, '');
}

/** The base URL the agent's wire uses: the root (native) or `<root>/v1` (OpenAI-compatible). */
export function ollamaBaseUrl(configured: string | null, wire: OllamaWire): string {
  const root = ollamaRoot(configured ?? OLLAMA_ROOT_URL);
  return wire === 'native' ? root : `${root}/v1`;
}
