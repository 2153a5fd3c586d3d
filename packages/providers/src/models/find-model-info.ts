import { ANTHROPIC_MODELS } from './anthropic-models.js';
import { GOOGLE_MODELS } from './google-models.js';
import type { ModelInfo, ModelTableEntry } from './model-info.js';
import { findModelPricing } from './model-prices.js';
import { OPENAI_MODELS } from './openai-models.js';

/** Values for a model no table knows, e.g. a local model behind an OpenAI-compatible server. */
export const UNKNOWN_MODEL_INFO: Readonly<ModelInfo> = Object.freeze({
  contextWindow: 32_768,
  maxOutputTokens: 4_096,
  nativeTools: true,
  parallelToolCalls: false,
  reasoning: false,
  stopSequences: true,
});

const TABLE: readonly ModelTableEntry[] = [...ANTHROPIC_MODELS, ...OPENAI_MODELS, ...GOOGLE_MODELS].sort(
  (a, b) => b.prefix.length - a.prefix.length,
);

/**
 * What `modelId` can do: the longest matching row of the Anthropic, OpenAI and Google tables, else
 * UNKNOWN_MODEL_INFO, with its price from MODEL_PRICES when known, and `overrides` applied last. A router
 * prefix such as `openai/` (OpenRouter) is ignored, so `anthropic/claude-sonnet-4-5` finds the Claude row.
 */
export function findModelInfo(modelId: string, overrides?: Partial<ModelInfo>): ModelInfo {
  const name = modelId.slice(modelId.lastIndexOf('/') + 1).toLowerCase();
  const entry = TABLE.find((row) => name.startsWith(row.prefix));
  const pricing = findModelPricing(name);
  return { ...(entry?.info ?? UNKNOWN_MODEL_INFO), ...(pricing ? { pricing } : {}), ...overrides };
}
