import type { Message, ModelRequest } from '@agentloop/spec';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildAnthropicRequest } from '../anthropic/build-anthropic-request.js';
import { toAnthropicMessages } from '../anthropic/to-anthropic-messages.js';
import { findModelInfo } from '../models/index.js';
import { toChatMessages } from '../openai/chat/to-chat-messages.js';
import { toResponsesInput } from '../openai/responses/to-responses-input.js';
import { heapAfterGc } from '../test-support/index.js';
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

/** A WeakRef the test empties when it likes, standing in for the garbage collector. */
const weakRefs = new Set<ReleasableWeakRef<object>>();
class ReleasableWeakRef<Target extends object> {
  #target: Target | undefined;
  constructor(target: Target) {
    this.#target = target;
    weakRefs.add(this);
  }
  deref(): Target | undefined {
    return this.#target;
  }
  release(): void {
    this.#target = undefined;
  }
}
/** What a garbage collection does to conversions no one is converting: drops them. */
const releaseAll = (): void => {
  for (const ref of weakRefs) ref.release();
  weakRefs.clear();
};

const history = (steps: number): Message[] => {
  const messages: Message[] = [user('Add the numbers'), { role: 'system', content: [{ type: 'text', text: 'Note' }] }];
  for (let n = 0; n < steps; n++) {
    messages.push(...step(n));
    // A user message after tool results: Anthropic merges it into the results' user message.
    if (n === 1) messages.push(user('Also double it'));
  }
  return messages;
};

describe('ConversationCache of an idle conversation', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    weakRefs.clear();
  });

  it('holds its conversion weakly, and converts the conversation whole once that was dropped', () => {
    vi.stubGlobal('WeakRef', ReleasableWeakRef);
    const extend = vi.fn((state: string[], messages: readonly Message[], from: number) => {
      for (const message of messages.slice(from)) state.push(message.role);
    });
    const cache = new ConversationCache<string[]>(
      () => [],
      (state, keep) => {
        state.length = keep;
        return keep;
      },
      extend,
    );
    const messages = history(2);
    cache.convert(messages);
    messages.push(...step(2));
    cache.convert(messages);
    expect(extend).toHaveBeenLastCalledWith(expect.anything(), messages, 7);
    releaseAll();
    expect(cache.convert(messages)).toEqual(messages.map((message) => message.role));
    expect(extend).toHaveBeenLastCalledWith(expect.anything(), messages, 0);
  });

  // Each step: the request converted onto what the earlier steps left, then the same request after a
  // release (converted whole), byte for byte; the next step then goes on from the rebuilt conversion.
  const afterRelease = (convert: (messages: Message[]) => unknown): void => {
    vi.stubGlobal('WeakRef', ReleasableWeakRef);
    const messages: Message[] = [user('Add the numbers')];
    for (const next of history(4)
      .slice(1)
      .map((message) => [message])) {
      messages.push(...next);
      const stepwise = JSON.stringify(convert(messages));
      releaseAll();
      expect(JSON.stringify(convert(messages))).toBe(stepwise);
      // And the same as converting copies, which share nothing with the cached conversion.
      expect(JSON.stringify(convert(copies(messages)))).toBe(stepwise);
    }
  };

  it('gives Anthropic the same request after a release as step by step', () => {
    const settings = { model: 'claude-sonnet-4-6', modelInfo: findModelInfo('claude-sonnet-4-6'), promptCaching: true };
    const tools = [{ name: 'add', description: 'Adds', inputSchema: { type: 'object' } }];
    afterRelease((messages) =>
      buildAnthropicRequest(
        { systemPrompt: 'System', messages, tools, toolChoice: 'required', signal: new AbortController().signal },
        settings,
      ),
    );
  });

  it('gives Chat Completions the same messages after a release as step by step, with and without reasoning', () => {
    afterRelease((messages) => toChatMessages('System', messages, { sendReasoning: false }));
    afterRelease((messages) => toChatMessages('System', messages, { sendReasoning: true }));
  });

  it('gives Responses the same input after a release as step by step', () => {
    afterRelease((messages) => toResponsesInput(messages));
  });

  it('lets the garbage collector take the converted copy of conversations no one is converting', async () => {
    const count = 500;
    const conversations = (): Message[][] => Array.from({ length: count }, () => copies(history(10)));
    const convert = (messages: Message[]) => toChatMessages('System', messages, { sendReasoning: false });
    // Compiled code counts in the heap too: compile the conversion before measuring.
    for (let round = 0; round < 3; round++) conversations().forEach(convert);
    const idle = conversations();
    const base = await heapAfterGc();
    let requests = idle.map(convert);
    const inFlight = (await heapAfterGc()) - base;
    requests = [];
    const held = (await heapAfterGc()) - base;
    // What stays of an idle conversation is its weak entry, not a copy of its messages.
    expect(held).toBeLessThan(inFlight / 4);
    expect([idle.length, requests.length]).toEqual([count, 0]);
  });
});
