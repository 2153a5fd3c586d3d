// A tool package depends on @agentloop/tools alone, so the error base class is re-exported here.
export type { AgentloopErrorOptions, ErrorAction } from '@agentloop/spec';
export { AgentloopError, describeThrown } from '@agentloop/spec';
export type { ToolDefinitionErrorCode } from './tool-definition-error.js';
export { ToolDefinitionError } from './tool-definition-error.js';
