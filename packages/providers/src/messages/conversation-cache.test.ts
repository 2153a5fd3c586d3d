import type { Message, ModelRequest } from '@agentloop/spec';
import { describe, expect, it, vi } from 'vitest';
import { buildAnthropicRequest } from '../anthropic/build-anthropic-request.js';
import { toAnthropicMessages } from '../anthropic/to-anthropic-messages.js';
import { findModelInfo } from '../models/index.js';
import { toChatMessages } from '../openai/chat/to-chat-messages.js';
import { toResponsesInput } from '../openai/responses/to-responses-input.js';
import { ConversationCache } from './conversation-cache.js';

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const step = (n: number): Message[] => [
  {
    role: 'assistant',
    content: [
      { type: 'text', text: `Step ${n}` },
      { type: 'tool-call', toolCallId: `call_${n}`, toolName: 'add', arguments: { a: n, b: 1 } },
    ],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: `call_${n}`, toolName: 'add', content: String(n + 1), isError: false },
    ],
  },
];
/** The same messages as new objects: a conversion that cannot reuse anything of another's. */
const copies = (history: readonly Message[]): Message[] => structuredClone(history) as Message[];

describe('ConversationCache', () => {
  it('converts only the messages added since the last call', () => {
    const converted: string[] = [];
    const cache = new ConversationCache<string[]>(
      () => [],
      (state, keep) => {
        state.length = keep;
        return keep;
      },
      (state, history, from) => {
        for (const message of history.slice(from)) {
          converted.push(message.role);
          state.push(message.role);
        }
      },
    );
    const history: Message[] = [user('Add')];
    for (let n = 0; n < 3; n++) {
      history.push(...step(n));
      expect(cache.convert(history)).toEqual(history.map((message) => message.role));
    }
    // Each message once: the first call converted 3, each later call 2.
    expect(converted).toHaveLength(7);
  });

  it('redoes a message that gained parts, and everything after a message that changed', () => {
    const extend = vi.fn((state: string[], history: readonly Message[], from: number) => {
      for (const message of history.slice(from)) state.push(`${message.role}:${message.content.length}`);
    });
    const cache = new ConversationCache<string[]>(
      () => [],
      (state, keep) => {
        state.length = keep;
        return keep;
      },
      extend,
    );
    const first = user('Add');
    const history: Message[] = [first, ...step(0), ...step(1)];
    cache.convert(history);
    (history[3] as Message).content.push({ type: 'text', text: 'more' } as never);
    expect(cache.convert(history)).toEqual(['user:1', 'assistant:2', 'tool:1', 'assistant:3', 'tool:1']);
    expect(extend).toHaveBeenLastCalledWith(expect.anything(), history, 3);
    // A compaction: the same first message, a summary in place of the steps.
    const compacted: Message[] = [first, user('Summary of the steps so far')];
    expect(cache.convert(compacted)).toEqual(['user:1', 'user:1']);
    expect(extend).toHaveBeenLastCalledWith(expect.anything(), compacted, 1);
  });
});

describe('conversions of a growing conversation', () => {
  const grow = (): Message[][] => {
    const history: Message[] = [user('Add the numbers'), { role: 'system', content: [{ type: 'text', text: 'Note' }] }];
    const snapshots: Message[][] = [];
    for (let n = 0; n < 4; n++) {
      history.push(...step(n));
      // A user message after tool results: Anthropic merges it into the results' user message.
      if (n === 1) history.push(user('Also double it'));
      snapshots.push([...history]);
    }
    return snapshots;
  };

  it('gives Anthropic the same messages as converting each call afresh', () => {
    for (const history of grow()) expect(toAnthropicMessages(history)).toEqual(toAnthropicMessages(copies(history)));
  });

  it('gives Chat Completions the same messages as converting each call afresh', () => {
    for (const history of grow()) {
      expect(toChatMessages('System', history, { sendReasoning: false })).toEqual(
        toChatMessages('System', copies(history), { sendReasoning: false }),
      );
    }
  });

  it('gives Responses the same input as converting each call afresh', () => {
    for (const history of grow()) expect(toResponsesInput(history)).toEqual(toResponsesInput(copies(history)));
  });

  it('answers a custom tool call with a custom output only while the call is in the conversation', () => {
    const first = user('Query the table');
    const custom: Message = {
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: 'call_sql',
          toolName: 'sql',
          arguments: { input: 'SELECT 1' },
          providerMetadata: { openai: { customToolCall: true } },
        },
      ],
    };
    const result: Message = {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'call_sql', toolName: 'sql', content: '1', isError: false }],
    };
    const kinds = (history: Message[]) =>
      toResponsesInput(history).map((item) => ('type' in item ? item.type : 'message'));
    expect(kinds([first, custom, result])).toEqual(['message', 'custom_tool_call', 'custom_tool_call_output']);
    // A compaction took the call out: the same result now answers nothing the server knows as custom.
    expect(kinds([first, user('Summary'), result])).toEqual(['message', 'message', 'function_call_output']);
    expect(kinds([first, custom, result])).toEqual(['message', 'custom_tool_call', 'custom_tool_call_output']);
  });

  it('leaves the body of an earlier Anthropic request as it was sent, with one cache breakpoint per request', () => {
    const settings = {
      model: 'claude-sonnet-4-6',
      modelInfo: findModelInfo('claude-sonnet-4-6'),
      promptCaching: true,
    };
    const tools = [{ name: 'add', description: 'Adds', inputSchema: { type: 'object' } }];
    const request = (messages: Message[]): ModelRequest => ({
      systemPrompt: 'System',
      messages,
      tools,
      toolChoice: 'required',
      signal: new AbortController().signal,
    });
    const bodies = grow().map((history) => ({
      body: buildAnthropicRequest(request(history), settings),
      sent: JSON.stringify(buildAnthropicRequest(request(copies(history)), settings)),
    }));
    for (const { body, sent } of bodies) {
      expect(JSON.stringify(body)).toBe(sent);
      // The system prompt, the last tool and the last message.
      expect(JSON.stringify(body).match(/cache_control/g)).toHaveLength(3);
    }
  });
});
