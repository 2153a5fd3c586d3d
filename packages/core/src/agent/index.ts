export type {
  AgentExit,
  AgentExitPayloadMap,
  AgentOutcome,
  AgentResult,
  AgentRunFigures,
} from '../loop/agent-result.js';
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
export { DefaultAgent } from './default-agent.js';
