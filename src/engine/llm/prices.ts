/**
 * Prices in USD per million tokens. The built-in rows carry the page they were read from and
 * whether that reading was checked against the provider's own page (`verified`); config rows
 * (llm section `prices`) override or add models, with `source: config` and no citation. A model not
 * listed is not priced: its calls' cost is null, and a cost cap refuses to run with it.
 */
import type { TokenUsage } from './token-usage';

export interface ModelPrice {
  input: number;
  cached_input: number | null;
  cache_write: number | null;
  output: number;
  verified: boolean;
  source: 'table' | 'config';
  citation: string | null;
}

export interface PricesView {
  checked_on: string;
  models: Record<string, ModelPrice>;
}

/** A config row: the llm section's `prices.<model>`. Cache rates may be left out or null. */
export interface ConfigPriceRow {
  input: number;
  output: number;
  cached_input?: number | null;
  cache_write?: number | null;
}

export const PRICES_CHECKED_ON = '2026-11-22';

const OPENAI_PRICING = 'https://openai.com/api/pricing';
const ANTHROPIC_PRICING = 'https://docs.anthropic.com/en/docs/about-claude/pricing';

// OpenAI bills no surcharge for writing its automatic prompt cache, so cache_write = input.
// Anthropic's cache_write is the 5-minute ephemeral write rate (the breakpoint this engine sets).
const openai = (input: number, cached: number, output: number, verified = false): ModelPrice => ({
  input,
  cached_input: cached,
  cache_write: input,
  output,
  verified,
  source: 'table',
  citation: OPENAI_PRICING,
});
const anthropic = (
  input: number,
  write: number,
  read: number,
  output: number,
  verified: boolean,
): ModelPrice => ({
  input,
  cached_input: read,
  cache_write: write,
  output,
  verified,
  source: 'table',
  citation: ANTHROPIC_PRICING,
});

/**
 * `verified: true` rows were compared with a copy of the provider's pricing page on
 * PRICES_CHECKED_ON; the others are the published list prices as known to the authors and should
 * be re-checked against the citation before relying on them for billing.
 */
const BUILT_IN: Record<string, ModelPrice> = {
  'gpt-5': openai(1.25, 0.125, 10),
  'gpt-5-mini': openai(0.25, 0.025, 2),
  'gpt-5-nano': openai(0.05, 0.005, 0.4),
  'gpt-4.1': openai(2, 0.5, 8),
  'gpt-4.1-mini': openai(0.4, 0.1, 1.6),
  'gpt-4.1-nano': openai(0.1, 0.025, 0.4),
  'gpt-4o': openai(2.5, 1.25, 10),
  'gpt-4o-mini': openai(0.15, 0.075, 0.6),
  o3: openai(2, 0.5, 8),
  'o4-mini': openai(1.1, 0.275, 4.4),
  'claude-opus-4-6': anthropic(5, 6.25, 0.5, 25, false),
  'claude-sonnet-4-6': anthropic(3, 3.75, 0.3, 15, false),
  'claude-opus-4-5': anthropic(5, 6.25, 0.5, 25, false),
  'claude-sonnet-4-5': anthropic(3, 3.75, 0.3, 15, false),
  'claude-haiku-4-5': anthropic(1, 1.25, 0.1, 5, false),
  'claude-opus-4-1': anthropic(15, 18.75, 1.5, 75, true),
  'claude-opus-4-0': anthropic(15, 18.75, 1.5, 75, true),
  'claude-sonnet-4-0': anthropic(3, 3.75, 0.3, 15, true),
  'claude-3-7-sonnet-latest': anthropic(3, 3.75, 0.3, 15, true),
  'claude-3-5-haiku-latest': anthropic(0.8, 1, 0.08, 4, true),
};

export class PriceTable {
  private readonly models: Record<string, ModelPrice>;

  constructor(configRows: Record<string, ConfigPriceRow> = {}) {
    const config = Object.entries(configRows).map(([model, row]): [string, ModelPrice] => [
      model,
      {
        input: row.input,
        cached_input: row.cached_input ?? null,
        cache_write: row.cache_write ?? null,
        output: row.output,
        verified: false,
        source: 'config',
        citation: null,
      },
    ]);
    this.models = { ...BUILT_IN, ...Object.fromEntries(config) };
  }

  /**
   * The price of a model. Besides the exact name it accepts a dated snapshot of a listed model
   * (`claude-sonnet-4-5-20250929`, `gpt-4.1-mini-2025-04-14`) and a router's `vendor/model` name.
   */
  lookup(model: string): ModelPrice | null {
    for (const candidate of candidates(model)) {
      const price = this.models[candidate];
      if (price) return price;
    }
    return null;
  }

  has(model: string): boolean {
    return this.lookup(model) !== null;
  }

  /** Cost in USD of one call, or null when the model is not priced. Missing cache rates bill at the input rate. */
  cost(model: string, usage: TokenUsage): number | null {
    const p = this.lookup(model);
    if (!p) return null;
    const cached = usage.cachedInputTokens;
    const written = usage.cacheWriteInputTokens;
    const plain = Math.max(0, usage.inputTokens - cached - written);
    const usd =
      plain * p.input +
      cached * (p.cached_input ?? p.input) +
      written * (p.cache_write ?? p.input) +
      usage.outputTokens * p.output;
    return Math.round((usd / 1_000_000) * 1e8) / 1e8;
  }

  view(): PricesView {
    return { checked_on: PRICES_CHECKED_ON, models: structuredClone(this.models) };
  }
}

function candidates(model: string): string[] {
  const out = [model];
  const bare = model.includes('/') ? model.slice(model.lastIndexOf('/') + 1) : model;
  if (bare !== model) out.push(bare);
  const undated = bare.replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, '');
  if (undated !== bare) out.push(undated);
  // Anthropic names its first 4.x snapshots without a minor number (claude-sonnet-4-20250514).
  if (/^claude-(opus|sonnet)-4$/.test(undated)) out.push(`${undated}-0`);
  return out;
}
