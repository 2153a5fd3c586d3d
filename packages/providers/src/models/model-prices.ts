import type { ModelPricing } from '@agentloop/spec';

/** One row of the price table: the model ids it prices and what they cost. */
export interface ModelPriceEntry {
  /**
   * The model's id without a date: a row prices that id, its dated snapshots (`-2025…`) and its
   * `-latest` alias, and nothing else, so that a new model of a family is never priced as an older one.
   */
  model: string;
  pricing: ModelPricing;
}

const price = (
  inputUsdPerMillion: number,
  outputUsdPerMillion: number,
  cache: { read?: number; write?: number } = {},
): ModelPricing => ({
  inputUsdPerMillion,
  outputUsdPerMillion,
  ...(cache.read === undefined ? {} : { cacheReadUsdPerMillion: cache.read }),
  ...(cache.write === undefined ? {} : { cacheWriteUsdPerMillion: cache.write }),
});

// Anthropic bills a 5-minute cache write at 1.25 times the input rate and a cache read at 0.1 times.
const claude = (input: number, output: number): ModelPricing =>
  price(input, output, { read: round(input * 0.1), write: round(input * 1.25) });

function round(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}

/**
 * List prices in USD per million tokens, standard tier, from the vendors' pricing pages (Anthropic's
 * "Pricing" and OpenAI's "API pricing") as of late 2025, and Claude Sonnet 4.6 (the CLI's default) as
 * published at its release in 2026. Only models whose price is known are here: a
 * model without a row has no cost, and none is guessed. OpenAI charges nothing extra for a cache write,
 * so its rows have a cache-read rate only.
 */
export const MODEL_PRICES: readonly ModelPriceEntry[] = [
  { model: 'claude-sonnet-4-6', pricing: claude(3, 15) },
  { model: 'claude-opus-4-5', pricing: claude(5, 25) },
  { model: 'claude-opus-4-1', pricing: claude(15, 75) },
  { model: 'claude-opus-4', pricing: claude(15, 75) },
  { model: 'claude-opus-4-0', pricing: claude(15, 75) },
  { model: 'claude-sonnet-4-5', pricing: claude(3, 15) },
  { model: 'claude-sonnet-4', pricing: claude(3, 15) },
  { model: 'claude-sonnet-4-0', pricing: claude(3, 15) },
  { model: 'claude-haiku-4-5', pricing: claude(1, 5) },
  { model: 'claude-3-7-sonnet', pricing: claude(3, 15) },
  { model: 'claude-3-5-sonnet', pricing: claude(3, 15) },
  { model: 'claude-3-5-haiku', pricing: claude(0.8, 4) },
  { model: 'claude-3-opus', pricing: claude(15, 75) },
  { model: 'claude-3-haiku', pricing: claude(0.25, 1.25) },
  { model: 'gpt-5', pricing: price(1.25, 10, { read: 0.125 }) },
  { model: 'gpt-5-codex', pricing: price(1.25, 10, { read: 0.125 }) },
  { model: 'gpt-5-chat', pricing: price(1.25, 10, { read: 0.125 }) },
  { model: 'gpt-5-mini', pricing: price(0.25, 2, { read: 0.025 }) },
  { model: 'gpt-5-nano', pricing: price(0.05, 0.4, { read: 0.005 }) },
  { model: 'gpt-5-pro', pricing: price(15, 120) },
  { model: 'gpt-4.1', pricing: price(2, 8, { read: 0.5 }) },
  { model: 'gpt-4.1-mini', pricing: price(0.4, 1.6, { read: 0.1 }) },
  { model: 'gpt-4.1-nano', pricing: price(0.1, 0.4, { read: 0.025 }) },
  { model: 'gpt-4o', pricing: price(2.5, 10, { read: 1.25 }) },
  // The first gpt-4o snapshot kept its launch price and has no cache discount.
  { model: 'gpt-4o-2024-05-13', pricing: price(5, 15) },
  { model: 'gpt-4o-mini', pricing: price(0.15, 0.6, { read: 0.075 }) },
  { model: 'o1', pricing: price(15, 60, { read: 7.5 }) },
  { model: 'o3', pricing: price(2, 8, { read: 0.5 }) },
  { model: 'o3-mini', pricing: price(1.1, 4.4, { read: 0.55 }) },
  { model: 'o4-mini', pricing: price(1.1, 4.4, { read: 0.275 }) },
  { model: 'gpt-4-turbo', pricing: price(10, 30) },
  { model: 'gpt-3.5-turbo', pricing: price(0.5, 1.5) },
  // Gemini: the rate for prompts up to 200k tokens (the Pro models charge more above it); implicit caching
  // has no write charge.
  { model: 'gemini-3-pro-preview', pricing: price(2, 12, { read: 0.2 }) },
  { model: 'gemini-3-flash-preview', pricing: price(0.5, 3, { read: 0.05 }) },
  { model: 'gemini-2.5-pro', pricing: price(1.25, 10, { read: 0.125 }) },
  { model: 'gemini-2.5-flash', pricing: price(0.3, 2.5, { read: 0.03 }) },
  { model: 'gemini-2.5-flash-lite', pricing: price(0.1, 0.4, { read: 0.01 }) },
  { model: 'gemini-2.0-flash', pricing: price(0.1, 0.4, { read: 0.025 }) },
  { model: 'gemini-2.0-flash-001', pricing: price(0.1, 0.4, { read: 0.025 }) },
  { model: 'gemini-2.0-flash-lite', pricing: price(0.075, 0.3) },
  { model: 'gemini-2.0-flash-lite-001', pricing: price(0.075, 0.3) },
];

const BY_MODEL: ReadonlyMap<string, ModelPricing> = new Map(MODEL_PRICES.map((row) => [row.model, row.pricing]));

/**
 * What `modelId` costs, or undefined when the table has no price for it. A router prefix (`openai/`) is
 * ignored; a dated snapshot (`claude-sonnet-4-5-20250929`, `gpt-4o-2024-08-06`) or a `-latest` alias takes
 * its model's price unless it has a row of its own.
 */
export function findModelPricing(modelId: string): ModelPricing | undefined {
  const name = modelId.slice(modelId.lastIndexOf('/') + 1).toLowerCase();
  const exact = BY_MODEL.get(name);
  if (exact) return exact;
  const undated = name.replace(/-(?:latest|20\d\d-?\d\d-?\d\d)$/, '');
  return undated === name ? undefined : BY_MODEL.get(undated);
}
