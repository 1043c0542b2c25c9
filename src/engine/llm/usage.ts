/**
 * Usage accounting in the spec's shapes (section 2, QuestionUsage). Tokens are normalised across
 * wires: `input_tokens` counts every prompt token, cached and cache-written ones included, so the
 * three input figures nest (cached + cache_write <= input) on both wires.
 */
import type { ErrorCode } from '../errors';
import type { PriceTable } from './prices';
import type { TokenUsage } from './token-usage';

export type { TokenUsage };

/** Token counts as a wire reports them, before pricing. */
export interface UsageRecord {
  calls: number;
  input_tokens: number;
  cached_input_tokens: number;
  cache_write_input_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
  total_tokens: number;
  latency_s: number;
  /** USD; null when a call in it has no price (so a cost cap is never undercounted). */
  cost: number | null;
}

export interface CallRecord {
  node: string;
  model: string;
  input_tokens: number;
  cached_input_tokens: number;
  cache_write_input_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
  total_tokens: number;
  latency_s: number;
  cost: number | null;
  /** False when the provider sent no usage: the token figures are then zeros, the cost null. */
  usage_reported: boolean;
  /** The error code of a failed call, else null. */
  error: ErrorCode | null;
}

export interface QuestionUsage {
  total: UsageRecord;
  nodes: Record<string, UsageRecord>;
  calls: CallRecord[];
  plan_cache_hits: number;
}

export function callRecord(args: {
  node: string;
  model: string;
  usage: TokenUsage | null;
  latencyS: number;
  prices: PriceTable;
  error?: ErrorCode | null;
}): CallRecord {
  const u = args.usage;
  const input = u?.inputTokens ?? 0;
  const output = u?.outputTokens ?? 0;
  return {
    node: args.node,
    model: args.model,
    input_tokens: input,
    cached_input_tokens: u?.cachedInputTokens ?? 0,
    cache_write_input_tokens: u?.cacheWriteInputTokens ?? 0,
    output_tokens: output,
    reasoning_tokens: u?.reasoningTokens ?? 0,
    total_tokens: input + output,
    latency_s: round(args.latencyS, 3),
    cost: u ? args.prices.cost(args.model, u) : null,
    usage_reported: u !== null,
    error: args.error ?? null,
  };
}

export function emptyUsage(): UsageRecord {
  return {
    calls: 0,
    input_tokens: 0,
    cached_input_tokens: 0,
    cache_write_input_tokens: 0,
    output_tokens: 0,
    reasoning_tokens: 0,
    total_tokens: 0,
    latency_s: 0,
    cost: 0,
  };
}

export function sumUsage(calls: readonly CallRecord[]): UsageRecord {
  const total = emptyUsage();
  for (const c of calls) {
    total.calls += 1;
    total.input_tokens += c.input_tokens;
    total.cached_input_tokens += c.cached_input_tokens;
    total.cache_write_input_tokens += c.cache_write_input_tokens;
    total.output_tokens += c.output_tokens;
    total.reasoning_tokens += c.reasoning_tokens;
    total.total_tokens += c.total_tokens;
    total.latency_s = round(total.latency_s + c.latency_s, 3);
    total.cost = total.cost === null || c.cost === null ? null : round(total.cost + c.cost, 8);
  }
  return total;
}

/** The run's usage from all its call records: totals, per node, the calls themselves. */
export function questionUsage(calls: readonly CallRecord[], planCacheHits = 0): QuestionUsage {
  const byNode = new Map<string, CallRecord[]>();
  for (const c of calls) byNode.set(c.node, [...(byNode.get(c.node) ?? []), c]);
  return {
    total: sumUsage(calls),
    nodes: Object.fromEntries([...byNode].map(([node, list]) => [node, sumUsage(list)])),
    calls: [...calls],
    plan_cache_hits: planCacheHits,
  };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
