import { DefaultAgent, ProviderError } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
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

  it("says when an approval was answered, its own or a sub-agent's, so a client stops showing it waiting", () => {
    const answered = {
      type: 'approval-resolved',
      iteration: 1,
      requestId: 'approval-r-1',
      toolCallId: 'c1',
      name: 'edit_file',
      decision: 'allow-once',
    } as const;
    expect(mapper().map(answered)).toEqual([
      {
        type: 'CUSTOM',
        name: 'agentloop.approval-resolved',
        value: { requestId: 'approval-r-1', toolCallId: 'c1', decision: 'allow-once' },
      },
    ]);
    const path = [{ toolName: 'helper', toolCallId: 'c0' }];
    expect(
      mapper().map({
        type: 'subagent-event',
        path,
        event: { ...answered, requestId: 'c0/approval-r-1', decision: 'cancelled' },
      }),
    ).toEqual([
      {
        type: 'CUSTOM',
        name: 'agentloop.approval-resolved',
        value: { requestId: 'c0/approval-r-1', toolCallId: 'c1', decision: 'cancelled' },
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

  it('shows a reply taken as converse once, after a model kept answering without tools', async () => {
    const agent = new DefaultAgent(
      new ScriptedProvider([{ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' }], { chunkSize: 100 }),
    );
    const map = mapper();
    const events = [...map.started()];
    agent.onAny((event) => events.push(...map.map(event)));
    const result = await agent.run('hi');
    expect(result).toMatchObject({ exit: 'converse', payload: { message: 'Three.' } });
    events.push(...map.ended({ result, messages: [...agent.memory.messages()] }));
    const texts = events.filter((event) => event.type === 'TEXT_MESSAGE_CONTENT').map((event) => event.delta);
    expect(texts).toEqual(['One.', 'Two.', 'Three.']);
    expect(events.map((event) => event.type).slice(-5)).toEqual([
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'MESSAGES_SNAPSHOT',
      'RUN_FINISHED',
    ]);
  });

  it('still shows a converse message the model wrote as the tool’s argument', () => {
    const map = mapper();
    map.map({ type: 'no-tool-call', iteration: 1, text: 'Thinking out loud.', consecutive: 1 });
    expect(map.map({ type: 'converse', iteration: 2, message: 'Hello there' })).toEqual([
      { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Hello there' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
    ]);
  });
});
