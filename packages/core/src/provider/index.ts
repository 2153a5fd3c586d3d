export type {
  LLMProvider,
  ModelRequest,
  ModelSettings,
  ProviderCapabilities,
  ReasoningEffort,
  ToolChoice,
} from './llm-provider.js';
export type {
  FinishChunk,
  FinishReason,
  ModelChunk,
  RetryChunk,
  TextDeltaChunk,
  ThinkingDeltaChunk,
  ThinkingEndChunk,
  ToolCallChunk,
  ToolCallStartChunk,
  UsageChunk,
} from './model-chunk.js';
export type { Usage } from './usage.js';
export { addUsage, emptyUsage } from './usage.js';
