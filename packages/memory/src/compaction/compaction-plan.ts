import type { Message } from '@agentloop/spec';

/** A conversation cut for compaction: what stays whole at the front and at the back, and the steps between. */
export interface CompactionPlan {
  /** The system messages, in order, then the first user message (the task) when the conversation starts with one. */
  head: Message[];
  /** The older steps: what a compaction replaces. Starts and ends on a step boundary. */
  middle: Message[];
  /** The most recent steps, kept whole. Starts on a step boundary. */
  recent: Message[];
  /** How many system messages the head holds. */
  systemMessages: number;
  /** Whether the head holds the first user message. */
  firstUserMessage: boolean;
}

/**
 * Cuts `messages` into head, middle and recent. The recent part is the longest run of whole steps at the
 * end whose tokens (`count`) stay within `recentTokens`, and at least the last step however large. A cut
 * falls only on a step boundary: an assistant message, or a user message that does not answer one (in the
 * XML protocol, results come back as a user message right after their call), so a tool call and its result
 * always land on the same side.
 */
export function planCompaction(
  messages: readonly Message[],
  options: { recentTokens: number; count: (messages: readonly Message[]) => number },
): CompactionPlan {
  const system = messages.filter((message) => message.role === 'system');
  const conversation = messages.filter((message) => message.role !== 'system');
  const firstUserMessage = conversation[0]?.role === 'user';
  const rest = conversation.slice(firstUserMessage ? 1 : 0);
  const boundaries = stepBoundaries(rest, firstUserMessage);
  let start = rest.length;
  let tokens = 0;
  for (let index = boundaries.length - 1; index >= 0; index--) {
    const boundary = boundaries[index] as number;
    const step = options.count(rest.slice(boundary, start));
    if (start < rest.length && tokens + step > options.recentTokens) break;
    tokens += step;
    start = boundary;
  }
  return {
    head: [...system, ...(firstUserMessage ? conversation.slice(0, 1) : [])],
    middle: rest.slice(0, start),
    recent: rest.slice(start),
    systemMessages: system.length,
    firstUserMessage,
  };
}

/**
 * The indices of `messages` where a step begins. `afterUser`: the message before the first one is a user
 * message (the head's), so a user message at 0 is not a result.
 */
export function stepBoundaries(messages: readonly Message[], afterUser = true): number[] {
  const boundaries: number[] = [];
  messages.forEach((message, index) => {
    const previous = index === 0 ? (afterUser ? 'user' : undefined) : messages[index - 1]?.role;
    if (message.role === 'assistant' || (message.role === 'user' && previous !== 'assistant')) boundaries.push(index);
  });
  return boundaries;
}
