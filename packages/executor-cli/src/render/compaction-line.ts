import type { AgentEventMap } from '@agentloop/core';
import { stripControls } from './strip-controls.js';
import type { Style } from './terminal.js';
import { formatCount } from './text-summary.js';

/**
 * The line a compaction leaves on screen: how many tokens it went from and to, and what it did with the
 * older messages. `⇣ Compacted the conversation: 152,300 → 41,200 tokens; 84 earlier messages summarised.`
 * A no-op (`strategy: 'none'`) says there was nothing to compact.
 */
export function formatCompactionLine(event: AgentEventMap['compaction-end'], style: Style): string {
  if (event.error) {
    // The error says what failed and that the conversation was left as it was.
    return style.yellow(`⚠ ${stripControls(event.error.message)}`);
  }
  const why = event.reason === 'context_length' ? 'The model found the request too long. ' : '';
  if (event.strategy === 'none') {
    // The agent's no-op: a conversation too short to have older steps was left as it was.
    return style.dim(
      `⇣ ${why}Nothing to compact: the conversation (${formatCount(event.tokensBefore)} tokens) has no older steps to summarise.`,
    );
  }
  const tokens = `${formatCount(event.tokensBefore)} → ${formatCount(event.tokensAfter)} tokens`;
  const did: string[] = [];
  if (event.summarizedMessages > 0) did.push(`${plural(event.summarizedMessages, 'earlier message')} summarised`);
  if (event.droppedMessages > 0) did.push(`${plural(event.droppedMessages, 'earlier message')} dropped`);
  if (event.droppedToolResults > 0) did.push(`${plural(event.droppedToolResults, 'older tool result')} emptied`);
  if (did.length === 0) did.push('nothing to compact');
  const fallback = event.fallbackReason ? ` (${stripControls(event.fallbackReason)})` : '';
  return style.dim(`⇣ ${why}Compacted the conversation: ${tokens}; ${did.join(', ')}${fallback}.`);
}

/** `42% of context`: how full the window is, for a status line. */
export function formatContextFullness(fraction: number): string {
  return `${Math.round(fraction * 100)}% of context`;
}

function plural(count: number, noun: string): string {
  return `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;
}
