export type { Memory, MemorySnapshot } from './conversation-memory.js';
export { ConversationMemory, MEMORY_SCHEMA_VERSION } from './conversation-memory.js';
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
export { messageText, systemMessage, toolCallsOf, userMessage } from './message.js';
