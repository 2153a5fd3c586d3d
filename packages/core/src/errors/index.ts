export type { AgentUsageErrorCode } from './agent-usage-error.js';
export { AgentUsageError } from './agent-usage-error.js';
