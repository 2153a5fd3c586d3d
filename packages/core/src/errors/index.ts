export { AgentloopError, ToolDefinitionError } from '@agentloop/tools';
export type { AgentloopErrorOptions, ErrorAction } from '@agentloop/tools';
export { AgentUsageError, CancelledError, ProviderError } from './provider-error.js';
export type { ProviderErrorCode, ProviderErrorOptions } from './provider-error.js';
