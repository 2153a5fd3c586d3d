import type { Message } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { toUiMessages } from './to-ui-messages.js';

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });

describe('toUiMessages', () => {
  it('makes one assistant message per turn, a step per model call, and loop-control calls text', () => {
    const messages: Message[] = [
      { role: 'system', content: [{ type: 'text', text: 'secret instructions' }] },
      user('What is in a.txt?'),
      {
        role: 'assistant',
        content: [
          { type: 'thinking', text: 'Look first.' },
          { type: 'text', text: 'Reading.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', arguments: { path: 'a.txt' } },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'read_file', arguments: { nope: 1 } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', content: 'hello', isError: false },
          { type: 'tool-result', toolCallId: 'c2', toolName: 'read_file', content: 'Invalid arguments', isError: true },
        ],
      },
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: 'c3',
            toolName: 'ask_question',
            arguments: { question: 'Which file next?', suggestions: ['b.txt'] },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c3', toolName: 'ask_question', content: 'asked', isError: false },
        ],
      },
      user('b.txt'),
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: 'c4',
            toolName: 'task_completion',
            arguments: { result: 'a.txt says hello', artifacts: ['a.txt'] },
          },
        ],
      },
    ];
    expect(toUiMessages(messages, { sessionId: 's1' })).toEqual([
      { id: 's1-1', role: 'user', parts: [{ type: 'text', text: 'What is in a.txt?', state: 'done' }] },
      {
        id: 's1-2',
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          { type: 'reasoning', text: 'Look first.', state: 'done' },
          { type: 'text', text: 'Reading.', state: 'done' },
          {
            type: 'tool-read_file',
            toolCallId: 'c1',
            state: 'output-available',
            input: { path: 'a.txt' },
            output: 'hello',
          },
          {
            type: 'tool-read_file',
            toolCallId: 'c2',
            state: 'output-error',
            input: { nope: 1 },
            errorText: 'Invalid arguments',
          },
          { type: 'step-start' },
          { type: 'text', text: 'Which file next?', state: 'done' },
          { type: 'data-agentloop-question', data: { question: 'Which file next?', suggestions: ['b.txt'] } },
        ],
      },
      { id: 's1-6', role: 'user', parts: [{ type: 'text', text: 'b.txt', state: 'done' }] },
      {
        id: 's1-7',
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          { type: 'text', text: 'a.txt says hello', state: 'done' },
          { type: 'data-agentloop-result', data: { result: 'a.txt says hello', artifacts: ['a.txt'] } },
        ],
      },
    ]);
  });

  it('shows a call that waits for approval as the SDK’s approval request, at the end when not stored yet', () => {
    const messages = toUiMessages([user('Fix a.txt')], {
      sessionId: 's1',
      runId: 'r1',
      waitingApprovals: [
        { requestId: 'approval-1', toolCallId: 'c1', name: 'edit_file', arguments: { path: 'a.txt' } },
      ],
    });
    expect(messages.at(-1)).toEqual({
      id: 's1-run-r1',
      role: 'assistant',
      parts: [
        { type: 'step-start' },
        {
          type: 'tool-edit_file',
          toolCallId: 'c1',
          state: 'approval-requested',
          input: { path: 'a.txt' },
          approval: { id: 'approval-1' },
        },
      ],
    });
  });
});
