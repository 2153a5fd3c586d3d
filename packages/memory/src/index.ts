export type { Memory, MemorySnapshot } from './conversation-memory.js';
export { ConversationMemory, MEMORY_SCHEMA_VERSION } from './conversation-memory.js';
