export { PLACEHOLDER_API_KEY } from './create-openai-client.js';
export { OpenAIProvider } from './openai-provider.js';
export type { OpenAIProviderOptions } from './openai-provider-options.js';
export { OpenAIResponsesProvider } from './openai-responses-provider.js';
export { DEFAULT_COMPATIBLE_IDLE_TIMEOUT_MS, DEFAULT_OPENAI_IDLE_TIMEOUT_MS } from './stream-openai-call.js';
