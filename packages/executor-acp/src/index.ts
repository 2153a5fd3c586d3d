// @agentloop/executor-acp: agentloop as an Agent Client Protocol agent. An editor (Zed, a JetBrains IDE,
// Neovim) starts the program and drives any agentloop agent over JSON-RPC on stdio: `new
// AcpExecutor(agentFactory).listen()`, or `agentloop acp`.

export type { AcpExecutorOptions } from './acp-executor.js';
export { AcpExecutor } from './acp-executor.js';
export type { AcpAgentFactory, AcpModels, AcpSessionAgent, AcpSessionSetup } from './session/agent-factory.js';
export type { AcpModelChoice } from './session/session-settings.js';
export { toRequestError } from './session/to-request-error.js';
export { endingMessage, stopReasonOf } from './updates/run-ending.js';
export type { SessionUpdateMapperOptions } from './updates/session-update-mapper.js';
export { SessionUpdateMapper } from './updates/session-update-mapper.js';
export type { ToolCallView, ToolCallViewInput } from './updates/tool-call-view.js';
export { toolCallView } from './updates/tool-call-view.js';
