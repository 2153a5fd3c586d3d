export { ANTHROPIC_MODELS } from './anthropic-models.js';
export { findModelInfo, findModelOverride, resolveModelInfo, UNKNOWN_MODEL_INFO } from './find-model-info.js';
export { GOOGLE_MODELS } from './google-models.js';
export type { ModelInfo, ModelOverrides, ModelTableEntry } from './model-info.js';
export type { ModelPriceEntry } from './model-prices.js';
export { findModelPricing, MODEL_PRICES } from './model-prices.js';
export { OPENAI_MODELS } from './openai-models.js';
export { providerCapabilities } from './provider-capabilities.js';
