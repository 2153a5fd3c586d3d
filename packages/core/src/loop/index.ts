export { nativeToolProtocol } from './native-protocol.js';
export { resolveToolProtocol } from './resolve-tool-protocol.js';
export type { LoopDependencies } from './run-loop.js';
export { runLoop } from './run-loop.js';
export type {
  ModelStep,
  StepDecoder,
  StepEvent,
  StepToolCall,
  ToolCallRecord,
  ToolProtocolAdapter,
} from './tool-protocol.js';
export { xmlToolProtocol } from './xml-protocol.js';
