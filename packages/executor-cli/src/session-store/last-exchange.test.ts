import type { Message } from '@agentloop/core';
import { userMessage } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { lastExchange } from './last-exchange.js';

const call = (id: string, toolName: string, args: Record<string, unknown>): Message => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: id, toolName, arguments: args }],
});
const result = (id: string, toolName: string): Message => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: id, toolName, content: 'ok', isError: false }],
});

describe('lastExchange', () => {
  it("is the last input and the task_completion's result after it", () => {
    const messages: Message[] = [
      userMessage('first task'),
      call('c1', 'task_completion', { result: 'first done' }),
      result('c1', 'task_completion'),
      userMessage('What do my notes say?'),
      call('c2', 'read_file', { path: 'notes.txt' }),
      result('c2', 'read_file'),
      userMessage('Your last response did not call a tool, so it did not reach the user.'),
      call('c3', 'task_completion', { result: 'Remember the milk.' }),
      result('c3', 'task_completion'),
    ];

    expect(lastExchange(messages)).toEqual({
      input: 'What do my notes say?',
      answer: { kind: 'done', text: 'Remember the milk.' },
    });
  });

  it('gives a question, or a message, by the tool that ended the run', () => {
    expect(lastExchange([userMessage('go'), call('q', 'ask_question', { question: 'Which file?' })]).answer).toEqual({
      kind: 'question',
      text: 'Which file?',
    });
    expect(lastExchange([userMessage('hi'), call('m', 'converse', { message: 'Hello!' })]).answer).toEqual({
      kind: 'message',
      text: 'Hello!',
    });
  });

  it('takes the text the agent wrote when no loop-control tool answered', () => {
    const messages: Message[] = [
      userMessage('go'),
      { role: 'assistant', content: [{ type: 'text', text: 'Working on it.' }] },
    ];

    expect(lastExchange(messages)).toEqual({ input: 'go', answer: { kind: 'message', text: 'Working on it.' } });
  });

  it('passes over what the loop wrote as user messages: XML tool results and environment changes', () => {
    const messages: Message[] = [
      userMessage('the real input'),
      userMessage('<tool_result tool="read_file">…</tool_result>'),
      userMessage('<environment_diff>cwd: /x</environment_diff>'),
    ];

    expect(lastExchange(messages).input).toBe('the real input');
  });

  it('is empty for an empty conversation', () => {
    expect(lastExchange([])).toEqual({ input: undefined, answer: undefined });
  });
});
