export type { ConfiguredAgentsOptions } from './configured-agents.js';
export { configuredAgentTools } from './configured-agents.js';
export { followingApproval } from './following-approval.js';
