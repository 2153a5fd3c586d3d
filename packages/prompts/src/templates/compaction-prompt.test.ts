import { describe, expect, it } from 'vitest';
import { compactionRequest, compactionSummaryMessage, compactionSystemPrompt } from './compaction-prompt.js';

describe('the compaction prompt', () => {
  it('asks for what a continuing agent needs: task, decisions, files, errors, open questions, state', () => {
    const request = compactionRequest('[user]\nFix the tests.');

    for (const heading of [
      '## Task',
      '## Decisions',
      '## Files and resources',
      '## Errors',
      '## Open questions',
      '## State of the work',
    ])
      expect(request).toContain(heading);
    expect(request).toContain('<transcript>\n[user]\nFix the tests.\n</transcript>');
    expect(request).toContain('A summary of earlier compactions');
  });

  it('tells the summariser what the agent keeps, and not to call tools', () => {
    const prompt = compactionSystemPrompt();

    expect(prompt).toContain("The agent keeps its instructions, the user's first message and its most recent steps");
    expect(prompt).toContain('Do not call tools.');
  });

  it('puts the summary in a tagged message that says how many messages it replaced', () => {
    expect(compactionSummaryMessage('  ## Task\nFix the tests.\n', 12)).toBe(
      [
        '<conversation_summary>',
        "The conversation was compacted to fit the context window: 12 earlier messages were replaced by this summary. The user's first message is above it; the most recent steps follow it.",
        '',
        '## Task\nFix the tests.',
        '</conversation_summary>',
      ].join('\n'),
    );
    expect(compactionSummaryMessage('x', 1)).toContain('1 earlier message was replaced');
  });
});
