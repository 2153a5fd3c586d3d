import type { StoredSession } from '@agentloop/core';
import type { MarkdownRenderer, Style } from '../render/index.js';
import { cutText, formatCount, plainMarkdown, stripControls } from '../render/index.js';
import { lastExchange } from './last-exchange.js';
import { timeAgo } from './time-ago.js';

/** The longest input or answer shown, in characters: the screen shows where the session stopped, not all of it. */
const MAX_SHOWN = 600;

/**
 * What a resumed session shows before its prompt: which session it is, and its last exchange (the user's
 * last input and the agent's answer, rendered with `markdown` as the answer was when it came). A pending
 * question is asked afterwards, as a new one would be.
 */
export function resumedSessionLines(
  stored: StoredSession,
  style: Style,
  options: { now?: Date; markdown?: MarkdownRenderer } = {},
): string {
  const { now, markdown = plainMarkdown } = options;
  const { info } = stored;
  const title = info.title ? ` · ${cutText(stripControls(info.title), 60).text}` : '';
  const lines = [
    style.dim(
      `↻ Resumed session ${info.id}${title} · ${formatCount(info.messageCount)} messages · ${timeAgo(info.updatedAt, now)}`,
    ),
  ];
  const { input, answer } = lastExchange(stored.messages);
  const shown = (text: string) => cutText(stripControls(text), MAX_SHOWN).text;
  if (input !== undefined) lines.push(`${style.bold(style.cyan('› '))}${shown(input)}`);
  // The answer is Markdown, written for the terminal it was shown on: it is rendered again, not shown raw.
  if (answer?.kind === 'done') lines.push(`${style.green('✔')} ${markdown(shown(answer.text))}`);
  else if (answer?.kind === 'message') lines.push(markdown(shown(answer.text)));
  else if (answer?.kind === 'question' && !stored.pendingQuestion)
    lines.push(`${style.yellow('?')} ${shown(answer.text)}`);
  return `${lines.join('\n')}\n`;
}
