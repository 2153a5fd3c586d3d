import type { StoredSession } from '@agentloop/core';
import { emptyUsage, userMessage } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { createStyle, loadMarkdownBlocks, renderMarkdown } from '../render/index.js';
import { resumedSessionLines } from './resumed-session-lines.js';

const style = createStyle(false);
// biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's styles are what is removed
const stripAnsi = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');
const now = new Date('2026-11-24T12:00:00Z');

function stored(
  messages: StoredSession['messages'],
  pendingQuestion?: StoredSession['pendingQuestion'],
): StoredSession {
  return {
    info: {
      id: 'abc123',
      title: 'What do my notes say?',
      model: 'test-model',
      workspace: '/work',
      createdAt: new Date('2026-11-24T09:00:00Z'),
      updatedAt: new Date('2026-11-24T10:00:00Z'),
      turnCount: 1,
      messageCount: messages.length,
      tokenCount: 0,
    },
    messages,
    usage: emptyUsage(),
    pendingQuestion,
  };
}

describe('resumedSessionLines', () => {
  it('names the session and shows its last exchange', () => {
    const text = resumedSessionLines(
      stored([
        userMessage('What do my notes say?'),
        {
          role: 'assistant',
          content: [
            {
              type: 'tool-call',
              toolCallId: 'c',
              toolName: 'task_completion',
              arguments: { result: 'Remember the milk.' },
            },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: 'c', toolName: 'task_completion', content: 'ok', isError: false },
          ],
        },
      ]),
      style,
      { now },
    );

    expect(text).toBe(
      '↻ Resumed session abc123 · What do my notes say? · 3 messages · 2 h ago\n› What do my notes say?\n✔ Remember the milk.\n',
    );
  });

  it('renders the answer as Markdown, as it was shown when it came', async () => {
    const summary = '## Fixed\n\n- **parse** handles `null`\n- tests pass';
    const blocks = await loadMarkdownBlocks();
    const markdown = (text: string) => renderMarkdown(blocks, 80, text);
    const text = resumedSessionLines(
      stored([
        userMessage('Fix the parser'),
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', toolCallId: 'c', toolName: 'task_completion', arguments: { result: summary } },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: 'c', toolName: 'task_completion', content: 'ok', isError: false },
          ],
        },
      ]),
      style,
      { now, markdown },
    );
    const shown = stripAnsi(text);

    expect(shown).not.toContain('**');
    expect(shown).not.toContain('`null`');
    expect(shown).toContain('  * parse handles null\n  * tests pass');
    expect(shown).toContain(`✔ ${stripAnsi(markdown(summary))}`);
  });

  it('leaves a pending question to be asked again, not printed', () => {
    const question = { question: 'Which file?', suggestions: ['a.ts'] };
    const text = resumedSessionLines(
      stored(
        [
          userMessage('Fix it'),
          {
            role: 'assistant',
            content: [{ type: 'tool-call', toolCallId: 'q', toolName: 'ask_question', arguments: question }],
          },
        ],
        question,
      ),
      style,
      { now },
    );

    expect(text).toBe('↻ Resumed session abc123 · What do my notes say? · 2 messages · 2 h ago\n› Fix it\n');
  });

  it('strips control sequences from what the model and the user wrote', () => {
    const text = resumedSessionLines(stored([userMessage('hi\u001b[2J there')]), style, { now });

    expect(text).not.toContain('\u001b');
  });
});
