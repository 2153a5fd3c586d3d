export { AgentloopError, ToolDefinitionError } from './agentloop-error.js';
export type { AgentloopErrorOptions, ErrorAction } from './agentloop-error.js';
