export type { AgentloopErrorOptions, ErrorAction } from '@agentloop/tools';
export { AgentloopError, ToolDefinitionError } from '@agentloop/tools';
export type { ProviderErrorCode, ProviderErrorOptions } from './provider-error.js';
export { AgentUsageError, CancelledError, ProviderError } from './provider-error.js';
