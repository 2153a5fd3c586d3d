import type { Message } from '@agentloop/spec';
import { AgentloopError, userMessage } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { HistoryCheck } from './history-check.js';

const call = (id: string): Message => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: id, toolName: 'echo', arguments: {} }],
});
const result = (id: string): Message => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: id, toolName: 'echo', content: 'ok', isError: false }],
});

function problemOf(check: HistoryCheck, messages: readonly Message[]): string | undefined {
  try {
    check.assertValid(messages);
    return undefined;
  } catch (error) {
    if (!AgentloopError.isInstance(error) || error.code !== 'invalid_history') throw error;
    return error.message;
  }
}

describe('HistoryCheck', () => {
  it('catches a bad message appended after a history it found valid', () => {
    const check = new HistoryCheck();
    const history = [userMessage('go'), call('c1'), result('c1')];
    expect(problemOf(check, history)).toBeUndefined();

    expect(problemOf(check, [...history, result('c1')])).toContain(
      'message 4 (tool) has a result for tool call "c1", which no call just before it made',
    );
  });

  it('catches a call left without its result in the messages appended since the last check', () => {
    const check = new HistoryCheck();
    const history = [userMessage('go'), call('c1'), result('c1')];
    check.assertValid(history);

    expect(problemOf(check, [...history, call('c2'), userMessage('next')])).toContain(
      'tool call "c2" (echo) has no result before message 5 (user)',
    );
  });

  it('does not walk again the messages it already checked', () => {
    const check = new HistoryCheck();
    let reads = 0;
    const first = userMessage('go');
    const counted = new Proxy(first, {
      get: (target, key, receiver) => {
        if (key === 'content') reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const history = [counted, call('c1'), result('c1')];
    check.assertValid(history);
    const afterFirst = reads;
    check.assertValid([...history, userMessage('next')]);

    expect(afterFirst).toBeGreaterThan(0);
    expect(reads).toBe(afterFirst);
  });

  it('checks from the start a history whose first message was replaced', () => {
    const check = new HistoryCheck();
    const tail = [userMessage('go'), call('c1'), result('c1')];
    check.assertValid(tail);

    expect(problemOf(check, [call('lost'), ...tail.slice(1)])).toContain('tool call "lost" (echo) has no result');
  });
});
