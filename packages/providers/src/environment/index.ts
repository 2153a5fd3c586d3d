// `@agentloop/providers/environment`: the reading of the environment alone, without the provider
// classes, the model tables or the errors' mapping, for a program that reads it before it needs a
// provider (the `agentloop` command, before its prompt).
export { DEFAULT_ANTHROPIC_MODEL, DEFAULT_GOOGLE_MODEL, DEFAULT_OPENAI_MODEL, defaultModel } from './default-model.js';
export type { ProviderChoice, ReadProviderEnvironmentOptions } from './read-provider-environment.js';
export { PROVIDER_VARIABLES, readProviderEnvironment } from './read-provider-environment.js';
