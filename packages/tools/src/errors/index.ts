export type { AgentloopErrorOptions, ErrorAction } from './agentloop-error.js';
export { AgentloopError, ToolDefinitionError } from './agentloop-error.js';
export { describeThrown } from './describe-thrown.js';
