export { DEFAULT_ANTHROPIC_MODEL, DEFAULT_OPENAI_MODEL, defaultModel, isOpenAIBaseURL } from './default-model.js';
export { nonBlank } from './non-blank.js';
export type { Environment, ProviderChoice, ReadProviderEnvironmentOptions } from './read-provider-environment.js';
export { noProviderInEnvironment, PROVIDER_VARIABLES, readProviderEnvironment } from './read-provider-environment.js';
