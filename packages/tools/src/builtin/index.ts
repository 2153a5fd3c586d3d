export type {
  AskQuestionPayload,
  ConversePayload,
  LoopControlExit,
  LoopControlPayloadMap,
  LoopControlToolName,
  TaskCompletionPayload,
} from './loop-control-tools.js';
export {
  askQuestionTool,
  converseTool,
  isLoopControlToolName,
  LOOP_CONTROL_TOOL_NAMES,
  loopControlTools,
  taskCompletionTool,
} from './loop-control-tools.js';
