export { ConversationMemory, MEMORY_SCHEMA_VERSION } from './conversation-memory.js';
export type { Memory, MemorySnapshot } from './conversation-memory.js';
export { messageText, systemMessage, toolCallsOf, userMessage } from './message.js';
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
} from './message.js';
