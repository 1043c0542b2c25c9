/**
 * How large a context (`options.num_ctx`) a request to Ollama asks for. Ollama runs a model with a
 * fixed context (2,048 or 4,096 tokens by default, by version) and cuts a longer prompt from the
 * front without an error, so the service sizes it per request from the prompt: an estimate of
 * the prompt's tokens, plus room for the answer, rounded up to a power of two, never below
 * NUM_CTX_FLOOR and never above the agent's `num_ctx_max`. A prompt that needs more than the cap
 * is refused before it is sent (PROVIDER_CONTEXT_TOO_LONG) rather than answered from half a prompt.
 *
 * Why powers of two and a floor: Ollama reloads the model whenever a request's num_ctx differs
 * from the loaded one's (its scheduler compares the runner options), which costs seconds. Coarse
 * sizes, with the floor above every ordinary step of a run, keep one size across a run's calls.
 */

/** Characters per token assumed: on the safe side for SQL, DDL and JSON (English prose runs near 4). */
export const CHARS_PER_TOKEN = 3;
/** Tokens the chat template adds around each message (role markers, separators). */
export const TOKENS_PER_MESSAGE = 8;
/** The smallest context asked for: above the service's ordinary prompts, so runs keep one size. */
export const NUM_CTX_FLOOR = 4096;
/** Room left for the answer when the agent sets no max_tokens. */
export const DEFAULT_ANSWER_ROOM = 1024;

export interface ContextEstimate {
  /** Estimated prompt tokens plus the room for the answer. */
  readonly needed: number;
  /** What to send as num_ctx; null when `needed` is over the cap. */
  readonly numCtx: number | null;
}

/** Estimated tokens of a prompt made of these message texts (and any tool definitions). */
export function estimatePromptTokens(texts: readonly string[]): number {
  let tokens = 0;
  for (const t of texts) tokens += Math.ceil(t.length / CHARS_PER_TOKEN) + TOKENS_PER_MESSAGE;
  return tokens;
}

export function contextFor(promptTokens: number, answerRoom: number, cap: number): ContextEstimate {
  const needed = promptTokens + answerRoom;
  if (needed > cap) return { needed, numCtx: null };
  let size = NUM_CTX_FLOOR;
  while (size < needed) size *= 2;
  return { needed, numCtx: Math.min(size, cap) };
}
