export type { AnthropicProviderOptions } from './anthropic-provider.js';
export { AnthropicProvider, DEFAULT_ANTHROPIC_IDLE_TIMEOUT_MS } from './anthropic-provider.js';
export { DEFAULT_ANTHROPIC_MAX_TOKENS } from './build-anthropic-request.js';
