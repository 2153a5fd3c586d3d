export type { ConfigErrorOptions } from './config-error.js';
export { ConfigError } from './config-error.js';
export { findProjectConfig, PROJECT_CONFIG_PATH, userConfigPath } from './config-paths.js';
// The zod schema and the parser (config-schema.ts, parse-config.ts) are left out on purpose: this index
// loads before the prompt, and they load only when a configuration file exists.
export type { ConfigFile, ProviderEntry, ProviderType } from './config-schema.js';
export { CONFIG_TEMPLATE } from './config-template.js';
export type { ConfigLocations, LoadedConfig } from './load-config.js';
export { loadConfig, readConfigFile } from './load-config.js';
export { splitModelReference } from './model-reference.js';
export { NoProviderError, noProviderMessage } from './no-provider-error.js';
export type { ProviderRequest, ProviderSpec } from './provider-spec.js';
export { API_KEY_VARIABLES, resolveProviderSpec } from './provider-spec.js';
export { isProviderType, PROVIDER_TYPES } from './provider-types.js';
export type { RetryOverrides } from './retry-overrides.js';
export type { ServeConfig } from './serve-schema.js';
export type { CliFlags, SessionSettings, SettingsSources } from './session-settings.js';
export { resolveSessionSettings } from './session-settings.js';
export type { ToolSafetySettings } from './tool-safety-config.js';
export { urlWithoutCredentials } from './url-credentials.js';
