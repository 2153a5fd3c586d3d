export type { ProviderFactory } from './create-provider.js';
export { createProvider } from './create-provider.js';
export type { ModelSwitcher, ModelSwitcherOptions } from './model-switcher.js';
export { createModelSwitcher } from './model-switcher.js';
