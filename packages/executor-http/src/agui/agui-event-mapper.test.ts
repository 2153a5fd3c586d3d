import { ProviderError } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { AguiEventMapper } from './agui-event-mapper.js';

function mapper() {
  let id = 0;
  return new AguiEventMapper({ threadId: 't', runId: 'r', approvalTimeoutMs: 1000, createId: () => `m${++id}` });
}

describe('AguiEventMapper', () => {
  it('closes the messages a retry throws away, and says so with a custom event', () => {
    const map = mapper();
    map.map({ type: 'message-start', iteration: 1 });
    map.map({ type: 'message-content', iteration: 1, text: 'Hel' });
    const retry = map.map({
      type: 'retry',
      iteration: 1,
      attempt: 1,
      delayMs: 500,
      discardOutput: true,
      error: new ProviderError('cut', { code: 'stream_broken', provider: 'test' }),
    });
    expect(retry).toEqual([
      { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
      {
        type: 'CUSTOM',
        name: 'agentloop.retry',
        value: { attempt: 1, delayMs: 500, discardOutput: true, code: 'stream_broken' },
      },
    ]);
    expect(map.map({ type: 'message-start', iteration: 1 })).toEqual([
      { type: 'TEXT_MESSAGE_START', messageId: 'm2', role: 'assistant' },
    ]);
  });

  it('never leaves a message open when a new one starts without an end', () => {
    const map = mapper();
    map.map({ type: 'thinking-start', iteration: 1 });
    map.map({ type: 'message-start', iteration: 1 });
    expect(map.map({ type: 'thinking-start', iteration: 2 })).toEqual([
      { type: 'REASONING_MESSAGE_END', messageId: 'm1' },
      { type: 'REASONING_END', messageId: 'm1' },
      { type: 'REASONING_START', messageId: 'm3' },
      { type: 'REASONING_MESSAGE_START', messageId: 'm3', role: 'reasoning' },
    ]);
    expect(map.map({ type: 'message-start', iteration: 2 })).toEqual([
      { type: 'TEXT_MESSAGE_END', messageId: 'm2' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm4', role: 'assistant' },
    ]);
  });
});
