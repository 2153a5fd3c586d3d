import type { Message } from '@agentloop/spec';

/**
 * Caches the Gemini content of each message. An agent resends the whole conversation every step, and
 * messages do not change once they are in it (they may only gain parts), so each is converted once. The
 * other vendors keep a whole converted conversation instead (ConversationCache); Gemini merges a turn into
 * the one before it when their roles match, so its conversion is cached per message and merged per call.
 * The cache is weak; callers must not mutate what the conversion returns.
 */
export function memoizeContent<Result>(convert: (message: Message) => Result): (message: Message) => Result {
  const cache = new WeakMap<Message, { parts: number; result: Result }>();
  return (message) => {
    const hit = cache.get(message);
    if (hit && hit.parts === message.content.length) return hit.result;
    const result = convert(message);
    cache.set(message, { parts: message.content.length, result });
    return result;
  };
}
