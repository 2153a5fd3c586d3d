import type { AgentEventMap } from '@agentloop/core';
import { AgentloopError } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { formatCompactionLine, formatContextFullness } from './compaction-line.js';
import { createStyle } from './terminal.js';

const style = createStyle(false);
const end = (fields: Partial<AgentEventMap['compaction-end']>): AgentEventMap['compaction-end'] => ({
  type: 'compaction-end',
  reason: 'threshold',
  strategy: 'summary',
  tokensBefore: 152_300,
  tokensAfter: 41_200,
  messagesBefore: 90,
  messagesAfter: 8,
  kept: { systemMessages: 0, firstUserMessage: true, recentMessages: 6 },
  summarizedMessages: 84,
  droppedMessages: 0,
  droppedToolResults: 0,
  ...fields,
});

describe('formatCompactionLine', () => {
  it('says how many tokens a summary went from and to, and how many messages it replaced', () => {
    expect(formatCompactionLine(end({}), style)).toBe(
      '⇣ Compacted the conversation: 152,300 → 41,200 tokens; 84 earlier messages summarised.',
    );
  });

  it('says what dropping the middle did, and why the summary was not used', () => {
    expect(
      formatCompactionLine(
        end({
          strategy: 'drop-middle',
          summarizedMessages: 0,
          droppedMessages: 20,
          droppedToolResults: 1,
          fallbackReason: 'the summarising call failed: Overloaded.',
        }),
        style,
      ),
    ).toBe(
      '⇣ Compacted the conversation: 152,300 → 41,200 tokens; 20 earlier messages dropped, 1 older tool result emptied (the summarising call failed: Overloaded.).',
    );
  });

  it('says there was nothing to compact for a no-op, not that it compacted', () => {
    expect(
      formatCompactionLine(
        end({ reason: 'manual', strategy: 'none', tokensAfter: 1_200, tokensBefore: 1_200, summarizedMessages: 0 }),
        style,
      ),
    ).toBe('⇣ Nothing to compact: the conversation (1,200 tokens) has no older steps to summarise.');
  });

  it('says when the model had rejected the request as too long', () => {
    expect(formatCompactionLine(end({ reason: 'context_length' }), style)).toMatch(
      /^⇣ The model found the request too long\. Compacted the conversation: /,
    );
  });

  it('says when there was nothing to compact', () => {
    expect(formatCompactionLine(end({ summarizedMessages: 0, tokensAfter: 152_300 }), style)).toBe(
      '⇣ Compacted the conversation: 152,300 → 152,300 tokens; nothing to compact.',
    );
  });

  it('says a compaction failed, and that the conversation is as it was', () => {
    const error = new AgentloopError('Compaction failed: the compactor threw. The conversation was left as it was.', {
      code: 'compaction_failed',
    });
    expect(formatCompactionLine(end({ error }), style)).toBe(
      '⚠ Compaction failed: the compactor threw. The conversation was left as it was.',
    );
  });
});

describe('formatContextFullness', () => {
  it('rounds to a whole percent', () => {
    expect(formatContextFullness(0.4249)).toBe('42% of context');
    expect(formatContextFullness(0)).toBe('0% of context');
  });
});
