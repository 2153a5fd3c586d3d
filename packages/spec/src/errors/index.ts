export type { AgentloopErrorOptions, ErrorAction } from './agentloop-error.js';
export { AgentloopError } from './agentloop-error.js';
export { CancelledError } from './cancelled-error.js';
export { describeThrown } from './describe-thrown.js';
export type { ProviderErrorCode, ProviderErrorOptions } from './provider-error.js';
export { ProviderError } from './provider-error.js';
