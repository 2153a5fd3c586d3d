export * from './compaction/index.js';
export type { Memory, MemorySnapshot } from './conversation-memory.js';
export { ConversationMemory, MEMORY_SCHEMA_VERSION } from './conversation-memory.js';
export * from './sessions/index.js';
export * from './tokens/index.js';
