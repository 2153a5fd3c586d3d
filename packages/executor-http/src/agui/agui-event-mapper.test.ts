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

  it('shows a form elicitation as a custom event with its schema and when it is cancelled unless answered', () => {
    const map = new AguiEventMapper({
      threadId: 't',
      runId: 'r',
      approvalTimeoutMs: 60_000,
      createId: () => 'm',
      now: () => Date.parse('2026-01-01T12:00:00.000Z'),
    });
    const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
    expect(
      map.map({
        type: 'elicitation-requested',
        iteration: 1,
        requestId: 'elicitation-1',
        toolCallId: 'c1',
        name: 'github__create_issue',
        server: 'github',
        message: 'Which repository?',
        mode: 'form',
        schema,
      }),
    ).toEqual([
      {
        type: 'CUSTOM',
        name: 'agentloop.elicitation-requested',
        value: {
          requestId: 'elicitation-1',
          toolCallId: 'c1',
          toolName: 'github__create_issue',
          server: 'github',
          message: 'Which repository?',
          mode: 'form',
          schema,
          expiresAt: '2026-01-01T12:01:00.000Z',
        },
      },
    ]);
    expect(
      map.map({
        type: 'elicitation-resolved',
        iteration: 1,
        requestId: 'elicitation-1',
        toolCallId: 'c1',
        name: 'github__create_issue',
        action: 'decline',
      }),
    ).toEqual([
      {
        type: 'CUSTOM',
        name: 'agentloop.elicitation-resolved',
        value: { requestId: 'elicitation-1', action: 'decline' },
      },
    ]);
  });

  it("shows a sub-agent's URL elicitation with the path it came through", () => {
    const path = [{ toolName: 'helper', toolCallId: 'c1' }];
    const [requested] = mapper().map({
      type: 'subagent-event',
      path,
      event: {
        type: 'elicitation-requested',
        iteration: 1,
        requestId: 'c1/elicitation-1',
        toolCallId: 'h1',
        name: 'auth__login',
        message: 'Sign in first.',
        mode: 'url',
        url: 'https://example.com/login',
      },
    });
    expect(requested).toMatchObject({
      name: 'agentloop.elicitation-requested',
      value: {
        requestId: 'c1/elicitation-1',
        toolCallId: 'h1',
        toolName: 'auth__login',
        message: 'Sign in first.',
        mode: 'url',
        url: 'https://example.com/login',
        subagentPath: path,
      },
    });
    expect((requested as unknown as { value: object }).value).not.toHaveProperty('schema');
    expect(
      mapper().map({
        type: 'subagent-event',
        path,
        event: {
          type: 'elicitation-resolved',
          iteration: 1,
          requestId: 'c1/elicitation-1',
          toolCallId: 'h1',
          name: 'auth__login',
          action: 'accept',
        },
      }),
    ).toEqual([
      {
        type: 'CUSTOM',
        name: 'agentloop.elicitation-resolved',
        value: { requestId: 'c1/elicitation-1', action: 'accept' },
      },
    ]);
  });
});
