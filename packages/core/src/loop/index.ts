export type { LoopDependencies } from './run-loop.js';
export { runLoop } from './run-loop.js';
export type {
  ModelStep,
  StepDecoder,
  StepEvent,
  ToolCall,
  ToolCallProblem,
  ToolProtocolAdapter,
} from './tool-protocol.js';
