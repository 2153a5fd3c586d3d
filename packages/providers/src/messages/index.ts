export { ConversationCache, type ConvertedConversation } from './conversation-cache.js';
export { memoizeByMessage } from './memoize-by-message.js';
export { memoizeByToolList } from './memoize-by-tool-list.js';
