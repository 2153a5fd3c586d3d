import { ANTHROPIC_MODELS } from './anthropic-models.js';
import { GOOGLE_MODELS } from './google-models.js';
import type { ModelInfo, ModelOverrides, ModelTableEntry } from './model-info.js';
import { findModelPricing } from './model-prices.js';
import { OPENAI_MODELS } from './openai-models.js';

/**
 * Values for a model no table knows, e.g. a local model behind an OpenAI-compatible server: safe rather
 * than generous. A window too small only compacts early; one call per response is what small models
 * manage; `edit_file` is the edit tool any model can use. No family, so a program can tell the model was
 * not known (the CLI says so in `--verbose`), and no price, so no cost is made up.
 */
export const UNKNOWN_MODEL_INFO: Readonly<ModelInfo> = Object.freeze({
  contextWindow: 32_768,
  maxOutputTokens: 4_096,
  nativeTools: true,
  parallelToolCalls: false,
  reasoning: false,
  stopSequences: true,
  editTool: 'edit_file',
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
  const name = modelName(modelId);
  const entry = TABLE.find((row) => name.startsWith(row.prefix));
  const pricing = findModelPricing(name);
  return { ...(entry?.info ?? UNKNOWN_MODEL_INFO), ...(pricing ? { pricing } : {}), ...overrides };
}

/**
 * The corrections `models` holds for `modelId` (see ModelOverrides): the exact id's, else the longest key
 * the id starts with; undefined when none applies.
 */
export function findModelOverride(modelId: string, models: ModelOverrides | undefined): Partial<ModelInfo> | undefined {
  if (models === undefined) return undefined;
  const name = modelName(modelId);
  let best: { length: number; override: Partial<ModelInfo> } | undefined;
  for (const [key, override] of Object.entries(models)) {
    const prefix = modelName(key);
    if (name === prefix) return override;
    if (name.startsWith(prefix) && prefix !== '' && (best === undefined || prefix.length > best.length)) {
      best = { length: prefix.length, override };
    }
  }
  return best?.override;
}

/**
 * What a provider for `modelId` knows of it: the table's entry (findModelInfo), corrected by the entry of
 * `models` that covers it (findModelOverride), then by `modelInfo`, the provider's own corrections.
 */
export function resolveModelInfo(
  modelId: string,
  corrections: { models?: ModelOverrides | undefined; modelInfo?: Partial<ModelInfo> | undefined } = {},
): ModelInfo {
  return findModelInfo(modelId, { ...findModelOverride(modelId, corrections.models), ...corrections.modelInfo });
}

// The id without a router prefix (`openai/`), in lower case.
function modelName(modelId: string): string {
  return modelId.slice(modelId.lastIndexOf('/') + 1).toLowerCase();
}
