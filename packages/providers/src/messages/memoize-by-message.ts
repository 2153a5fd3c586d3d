import type { Message } from '@agentloop/spec';

/**
 * Caches a per-message conversion. An agent resends the whole conversation every step, and messages do
 * not change once they are in it, so each is converted once instead of once per step (a conversation of
 * n steps would otherwise cost n² conversions). The cache is weak, and an entry is redone if the
 * message's part count changed. Callers must not mutate what the conversion returns.
 */
export function memoizeByMessage<Result>(convert: (message: Message) => Result): (message: Message) => Result {
  const cache = new WeakMap<Message, { parts: number; result: Result }>();
  return (message) => {
    const hit = cache.get(message);
    if (hit && hit.parts === message.content.length) return hit.result;
    const result = convert(message);
    cache.set(message, { parts: message.content.length, result });
    return result;
  };
}
