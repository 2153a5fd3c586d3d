// The types an app needs most are re-exported here, so an app imports from @agentloop/core and a provider.

export type {
  AssistantMessage,
  Memory,
  MemorySnapshot,
  Message,
  MessagePart,
  TextPart,
  ThinkingPart,
  ToolCallPart,
  ToolMessage,
  ToolResultPart,
  UserMessage,
} from '@agentloop/memory';
export { ConversationMemory, messageText, systemMessage, userMessage } from '@agentloop/memory';
export type { PromptContext, PromptSection } from '@agentloop/prompts';
export { PromptBuilder } from '@agentloop/prompts';
export type {
  AskQuestionPayload,
  ConversePayload,
  TaskCompletionPayload,
  Tool,
  ToolContext,
  ToolDefinition,
  ToolProgress,
} from '@agentloop/tools';
export {
  defineTool,
  defineToolPlugin,
  isLoopControlToolName,
  LOOP_CONTROL_TOOL_NAMES,
  ToolRegistry,
} from '@agentloop/tools';
export * from './agent/index.js';
export * from './di/index.js';
export * from './errors/index.js';
export * from './events/index.js';
export * from './loop/index.js';
export * from './provider/index.js';
export * from './retry/index.js';
