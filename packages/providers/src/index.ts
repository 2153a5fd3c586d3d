// The root entry never imports a vendor SDK: createProvider loads the vendor's module on demand.
export type { AnthropicProviderOptions } from './anthropic/index.js';
export type { CreateProviderOptions, ProviderKind, ProviderSpec } from './create-provider.js';
export { createProvider } from './create-provider.js';
export type { ProviderChoice, ReadProviderEnvironmentOptions } from './environment/index.js';
export { defaultModel, PROVIDER_VARIABLES, readProviderEnvironment } from './environment/index.js';
export type { GoogleProviderOptions } from './google/index.js';
export type { ModelInfo, ModelOverrides, ModelPriceEntry, ModelTableEntry } from './models/index.js';
export {
  ANTHROPIC_MODELS,
  findModelInfo,
  findModelOverride,
  findModelPricing,
  GOOGLE_MODELS,
  MODEL_PRICES,
  OPENAI_MODELS,
  resolveModelInfo,
  UNKNOWN_MODEL_INFO,
} from './models/index.js';
export type { OpenAIProviderOptions } from './openai/index.js';
export type { ProviderFromEnvironmentOptions } from './provider-from-environment.js';
export {
  DEFAULT_ANTHROPIC_MODEL,
  DEFAULT_GOOGLE_MODEL,
  DEFAULT_OPENAI_MODEL,
  optionalProviderFromEnvironment,
  providerFromEnvironment,
} from './provider-from-environment.js';
