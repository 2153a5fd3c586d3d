export { DEFAULT_CHARS_PER_TOKEN } from './count-message-tokens.js';
export type { DefaultTokenCounterOptions } from './default-token-counter.js';
export { DefaultTokenCounter } from './default-token-counter.js';
export type { TokenCounter, TokenCountRequest } from './token-counter.js';
export type { Tokenizer } from './tokenizer.js';
export { loadTokenizer } from './tokenizer.js';
