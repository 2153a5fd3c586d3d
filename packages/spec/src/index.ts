// The contracts of agentloop and nothing else: what a provider implements (LLMProvider, the model request
// and its chunks, usage), the message model history is made of, how a tool is described to a model, and
// the error base class. A provider written by a third party depends on this package alone.

export * from './errors/index.js';
export type { HistoryProblemOptions } from './messages/history-problem.js';
export { findHistoryProblem } from './messages/history-problem.js';
export type {
  AssistantMessage,
  Message,
  MessagePart,
  MessageRole,
  SystemMessage,
  TextPart,
  ThinkingPart,
  ToolCallPart,
  ToolMessage,
  ToolResultPart,
  UserMessage,
} from './messages/message.js';
export { messageText, systemMessage, toolCallsOf, userMessage } from './messages/message.js';
export type { ToolResultImage } from './messages/tool-result-image.js';
export { describeToolResultImage } from './messages/tool-result-image.js';
export type {
  AnyLLMProvider,
  EditTool,
  LLMProvider,
  LLMProviderV1,
  ModelRequest,
  ModelSettings,
  ProviderCapabilities,
  ReasoningEffort,
  ToolChoice,
} from './provider/llm-provider.js';
export { PROVIDER_SPECIFICATION_VERSION } from './provider/llm-provider.js';
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
} from './provider/model-chunk.js';
export type { ModelPricing } from './provider/model-pricing.js';
export type { Usage } from './provider/usage.js';
export { addUsage, emptyUsage } from './provider/usage.js';
export type { JsonSchema, ToolDefinition } from './tools/tool-definition.js';
