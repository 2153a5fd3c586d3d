// @agentloop/executor-acp/testing: for tests that drive an agent as an editor would.
export type { TranscriptEntry } from './acp-protocol-check.js';
export { AcpProtocolCheck } from './acp-protocol-check.js';
