import type { Message } from '@agentloop/spec';
import { messageText } from '@agentloop/spec';
import { withoutMentionedSkills } from '../skills/mentioned-skills.js';

const MAX_TITLE_CHARS = 80;

/**
 * A session's title from its conversation: the first input, without the skills its `$name`s added, on
 * one line, cut at 80 characters.
 */
export function sessionTitle(messages: readonly Message[]): string | undefined {
  const first = messages.find((message) => message.role === 'user');
  if (!first) return undefined;
  const text = withoutMentionedSkills(messageText(first)).replace(/\s+/g, ' ').trim();
  if (text === '') return undefined;
  const characters = [...text];
  if (characters.length <= MAX_TITLE_CHARS) return text;
  return `${characters
    .slice(0, MAX_TITLE_CHARS - 1)
    .join('')
    .trimEnd()}…`;
}
