export { ConversationCache, type ConvertedConversation } from './conversation-cache.js';
export { memoizeByToolList } from './memoize-by-tool-list.js';
