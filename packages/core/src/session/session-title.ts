import type { Message } from '@agentloop/spec';
import { messageText } from '@agentloop/spec';

const MAX_TITLE_CHARS = 80;

/** A session's title from its conversation: the first input, on one line, cut at 80 characters. */
export function sessionTitle(messages: readonly Message[]): string | undefined {
  const first = messages.find((message) => message.role === 'user');
  if (!first) return undefined;
  const text = messageText(first).replace(/\s+/g, ' ').trim();
  if (text === '') return undefined;
  const characters = [...text];
  if (characters.length <= MAX_TITLE_CHARS) return text;
  return `${characters
    .slice(0, MAX_TITLE_CHARS - 1)
    .join('')
    .trimEnd()}…`;
}
