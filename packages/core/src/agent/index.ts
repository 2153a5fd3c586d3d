export type { Agent } from './agent.js';
export type {
  AgentOptions,
  AgentSessionOptions,
  OnMaxIterations,
  OutputResult,
  OutputSchema,
  RunOptions,
  ToolProtocolOption,
} from './agent-options.js';
export type { AgentExit, AgentExitPayloadMap, AgentOutcome, AgentResult, AgentRunFigures } from './agent-result.js';
export { DefaultAgent } from './default-agent.js';
