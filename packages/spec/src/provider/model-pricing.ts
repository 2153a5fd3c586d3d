/**
 * What a model costs, in US dollars per million tokens, as its vendor lists it. Token kinds follow
 * `Usage`: cache reads and writes are part of the input tokens, and are priced at their own rate when
 * one is given here (at the input rate when not: OpenAI charges nothing extra for a cache write).
 * Reasoning tokens are output tokens.
 */
export interface ModelPricing {
  /** Input tokens not read from or written to the prompt cache. */
  inputUsdPerMillion: number;
  /** Output tokens, reasoning included. */
  outputUsdPerMillion: number;
  /** Input tokens read from the prompt cache; absent: the input rate. */
  cacheReadUsdPerMillion?: number;
  /** Input tokens written to the prompt cache; absent: the input rate. */
  cacheWriteUsdPerMillion?: number;
}
