import { readFileSync } from 'node:fs';
import type { AssistantMessage, Message, ToolMessage } from '@agentloop/spec';
import { AgentloopError, messageText, systemMessage, toolCallsOf, userMessage } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import type { MemorySnapshot } from './conversation-memory.js';
import { ConversationMemory, MEMORY_SCHEMA_VERSION } from './conversation-memory.js';

const assistantWithToolCalls: AssistantMessage = {
  role: 'assistant',
  content: [
    { type: 'thinking', text: 'Check the weather in both cities.', signature: 'sig-abc123' },
    { type: 'thinking', text: '', redactedData: 'opaque-redacted-bytes' },
    { type: 'text', text: 'Let me look that up.' },
    { type: 'tool-call', toolCallId: 'call-1', toolName: 'weather', arguments: { city: 'Oslo' } },
    {
      type: 'tool-call',
      toolCallId: 'call-2',
      toolName: 'weather',
      arguments: { city: 'Lima', units: { temperature: 'celsius' } },
      providerMetadata: { itemId: 'fc_42' },
    },
  ],
};

const toolResults: ToolMessage = {
  role: 'tool',
  content: [
    { type: 'tool-result', toolCallId: 'call-1', toolName: 'weather', content: '4°C, rain', isError: false },
    { type: 'tool-result', toolCallId: 'call-2', toolName: 'weather', content: 'service unavailable', isError: true },
  ],
};

const conversation: Message[] = [
  systemMessage('Answer briefly.'),
  userMessage('Weather in Oslo and Lima?'),
  assistantWithToolCalls,
  toolResults,
];

/** Calls `fn` and returns what it threw, failing the test when it did not throw. */
function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

describe('ConversationMemory', () => {
  it('starts empty', () => {
    const memory = new ConversationMemory();

    expect(memory.messages()).toEqual([]);
    expect(memory.length).toBe(0);
  });

  it('starts with the messages it is given', () => {
    expect(new ConversationMemory(conversation).messages()).toStrictEqual(conversation);
  });

  it('appends messages at the end, oldest first', () => {
    const memory = new ConversationMemory([userMessage('first')]);
    memory.append(userMessage('second'), userMessage('third'));

    expect(memory.messages().map(messageText)).toEqual(['first', 'second', 'third']);
    expect(memory.length).toBe(3);
  });

  it('is not changed when the array it was created from changes', () => {
    const initial = [userMessage('first')];
    const memory = new ConversationMemory(initial);
    initial.push(userMessage('second'));

    expect(memory.length).toBe(1);
  });

  it('forgets the conversation on clear but keeps system messages', () => {
    const memory = new ConversationMemory(conversation);
    memory.append(systemMessage('Use metric units.'), userMessage('Thanks'));
    memory.clear();

    expect(memory.messages()).toStrictEqual([systemMessage('Answer briefly.'), systemMessage('Use metric units.')]);
  });

  describe('snapshot and restore', () => {
    it('writes the current schema version', () => {
      expect(new ConversationMemory().snapshot()).toStrictEqual({ schemaVersion: MEMORY_SCHEMA_VERSION, messages: [] });
      expect(MEMORY_SCHEMA_VERSION).toBe(1);
    });

    it('restores exactly what it saved after a trip through JSON', () => {
      const saved = JSON.stringify(new ConversationMemory(conversation).snapshot());

      expect(ConversationMemory.fromSnapshot(JSON.parse(saved)).messages()).toStrictEqual(conversation);
    });

    it('keeps thinking signatures and redacted thinking, which providers need back verbatim', () => {
      const saved = JSON.stringify(new ConversationMemory(conversation).snapshot());
      const restored = ConversationMemory.fromSnapshot(JSON.parse(saved)).messages()[2] as AssistantMessage;

      expect(restored.content.filter((part) => part.type === 'thinking')).toStrictEqual([
        { type: 'thinking', text: 'Check the weather in both cities.', signature: 'sig-abc123' },
        { type: 'thinking', text: '', redactedData: 'opaque-redacted-bytes' },
      ]);
    });

    it('keeps tool calls with their arguments and tool results with their error flag', () => {
      const saved = JSON.stringify(new ConversationMemory(conversation).snapshot());
      const [, , assistant, tool] = ConversationMemory.fromSnapshot(JSON.parse(saved)).messages();

      expect(toolCallsOf(assistant!)).toStrictEqual(toolCallsOf(assistantWithToolCalls));
      expect(tool).toStrictEqual(toolResults);
    });

    it('gives a deep copy: changing the memory afterwards does not change the snapshot', () => {
      const memory = new ConversationMemory(conversation);
      const snapshot = memory.snapshot();
      const before = structuredClone(snapshot);

      memory.append(userMessage('later'));
      (memory.messages()[2]!.content[0] as { text: string }).text = 'changed';
      memory.clear();

      expect(snapshot).toStrictEqual(before);
    });

    it('gives a deep copy: changing the snapshot does not change the memory', () => {
      const memory = new ConversationMemory([userMessage('hello')]);
      const snapshot = memory.snapshot();

      (snapshot.messages[0]!.content[0] as { text: string }).text = 'changed';

      expect(messageText(memory.messages()[0]!)).toBe('hello');
    });

    it('copies a restored snapshot, so changing the snapshot later does not change the memory', () => {
      const snapshot: MemorySnapshot = { schemaVersion: 1, messages: [userMessage('hello')] };
      const memory = ConversationMemory.fromSnapshot(snapshot);

      (snapshot.messages[0]!.content[0] as { text: string }).text = 'changed';
      snapshot.messages.push(userMessage('more'));

      expect(memory.messages()).toStrictEqual([userMessage('hello')]);
    });

    it('replaces the whole conversation on restore', () => {
      const memory = new ConversationMemory([systemMessage('old system'), userMessage('old')]);
      memory.restore({ schemaVersion: 1, messages: [userMessage('new')] });

      expect(memory.messages()).toStrictEqual([userMessage('new')]);
    });

    it('rejects a snapshot of another schema version, saying which versions it got and reads', () => {
      const error = thrownBy(() => ConversationMemory.fromSnapshot({ schemaVersion: 2, messages: [] }));

      expect(AgentloopError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        code: 'unsupported_snapshot_version',
        message: 'Memory snapshot has schemaVersion 2; this version of @agentloop/memory reads version 1.',
      });
    });

    it('rejects a snapshot without a schema version', () => {
      expect(thrownBy(() => ConversationMemory.fromSnapshot({ messages: [] }))).toMatchObject({
        code: 'unsupported_snapshot_version',
      });
    });

    it("keeps a tool result's images through JSON, and refuses malformed ones", () => {
      const images = [{ mediaType: 'image/png', data: Buffer.alloc(100).toString('base64') }];
      const [first, second] = toolResults.content;
      const withImages: Message[] = [
        ...conversation.slice(0, 3),
        { role: 'tool', content: [{ ...first!, images }, second!] },
      ];
      const saved = JSON.stringify(new ConversationMemory(withImages).snapshot());
      expect(ConversationMemory.fromSnapshot(JSON.parse(saved)).messages()).toStrictEqual(withImages);

      const broken = JSON.parse(saved.replace('"mediaType":"image/png"', '"mediaType":3'));
      expect(thrownBy(() => ConversationMemory.fromSnapshot(broken))).toMatchObject({
        message: expect.stringContaining('image 1 of the images of the result for tool call "call-1"'),
      });
    });

    it('leaves the memory as it was when a restore is rejected', () => {
      const memory = new ConversationMemory([userMessage('kept')]);
      thrownBy(() => memory.restore({ schemaVersion: 99, messages: [] }));

      expect(memory.messages()).toStrictEqual([userMessage('kept')]);
    });

    it.each([
      ['null', null],
      ['a string', '{"schemaVersion":1,"messages":[]}'],
      ['an object without messages', { schemaVersion: 1 }],
      ['messages that are not an array', { schemaVersion: 1, messages: { 0: userMessage('hi') } }],
    ])('rejects %s as a malformed snapshot', (_case, value) => {
      const error = thrownBy(() => ConversationMemory.fromSnapshot(value));

      expect(AgentloopError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        code: 'invalid_snapshot',
        message: expect.stringMatching(/^Not a memory snapshot: .+\.$/),
      });
    });

    it('reports a newer version even when its shape differs', () => {
      expect(thrownBy(() => ConversationMemory.fromSnapshot({ schemaVersion: 2, turns: [] }))).toMatchObject({
        code: 'unsupported_snapshot_version',
      });
    });

    it('rejects a message without a role or content, naming its index', () => {
      expect(
        thrownBy(() => ConversationMemory.fromSnapshot({ schemaVersion: 1, messages: [userMessage('ok'), null] })),
      ).toMatchObject({
        code: 'invalid_snapshot',
        message: 'Not a memory snapshot: message 1 has no valid "role" and "content" array.',
      });
    });
    it('rejects a snapshot whose history no provider would accept, naming the problem', () => {
      const orphaned = {
        schemaVersion: 1,
        messages: [
          { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'echo', arguments: {} }] },
          userMessage('next'),
        ],
      };
      expect(thrownBy(() => ConversationMemory.fromSnapshot(orphaned))).toMatchObject({
        code: 'invalid_snapshot',
        message: 'Not a memory snapshot: tool call "c1" (echo) has no result before message 2 (user).',
      });
    });

    it('names the call that has no result when the history ends after it', () => {
      const cut = {
        schemaVersion: 1,
        messages: [
          userMessage('Weather in Oslo and Lima?'),
          assistantWithToolCalls,
          { role: 'tool', content: [toolResults.content[0]] },
        ],
      };
      expect(thrownBy(() => ConversationMemory.fromSnapshot(cut))).toMatchObject({
        code: 'invalid_snapshot',
        message: 'Not a memory snapshot: tool call "call-2" (weather) has no result before the end of the history.',
      });
    });

    it('names a result whose call is not in the message before it', () => {
      const stray = {
        schemaVersion: 1,
        messages: [userMessage('Weather?'), toolResults],
      };
      expect(thrownBy(() => ConversationMemory.fromSnapshot(stray))).toMatchObject({
        code: 'invalid_snapshot',
        message:
          'Not a memory snapshot: message 2 (tool) has a result for tool call "call-1", which no call just before it made.',
      });
    });
  });

  // This file is the format of schemaVersion 1 as released. It is written by hand and must never be
  // regenerated: if a change to the Message model breaks these tests, add a migration instead.
  describe('the frozen version 1 snapshot', () => {
    const fixtureText = readFileSync(new URL('./__fixtures__/memory-snapshot-v1.json', import.meta.url), 'utf8');
    const fixture = (): unknown => JSON.parse(fixtureText);

    it('restores the conversation it holds', () => {
      const messages = ConversationMemory.fromSnapshot(fixture()).messages();

      expect(messages.map((message) => message.role)).toEqual([
        'user',
        'assistant',
        'tool',
        'assistant',
        'tool',
        'user',
      ]);
      expect(messageText(messages[0]!)).toBe(
        'The tests in packages/api fail since this morning. Find out why and fix it.',
      );
      expect(messageText(messages[5]!)).toBe('Yes, install it');
    });

    it('restores thinking with its signature and redacted thinking with its data', () => {
      const assistant = ConversationMemory.fromSnapshot(fixture()).messages()[1]!;

      expect(assistant.content.slice(0, 2)).toStrictEqual([
        {
          type: 'thinking',
          text: 'I should read the failing test file and run the suite to see the error.',
          signature:
            'EqQBCkgIBRABGAIiQL2mN3x0Rk1v5J8cT1ZQyD7hXk0p9uQ2rWc4aFsYb6eTjH1oLgVnPzKdM8sA3fIwE5yRtU7iOqB9lCxvGhN0ZmASDKh4',
        },
        {
          type: 'thinking',
          text: '',
          redactedData:
            'EmwKAhgBEgy3vRQ9sL2kXn4pA1IaDDq8wT5mYc0uJfR7hSIwk2Nx9ZbQ1eVtL6oP3aGsD8yW0cFvK4jHnU5iM7rTqE2lB9xO',
        },
      ]);
    });

    it('restores the tool calls and gives each exactly one result, keeping the error flag', () => {
      const messages = ConversationMemory.fromSnapshot(fixture()).messages();
      const calls = messages.flatMap(toolCallsOf);
      const results = messages.flatMap((message) => (message.role === 'tool' ? message.content : []));

      expect(calls.map((part) => [part.toolName, part.arguments])).toEqual([
        ['read_file', { path: 'packages/api/src/server.test.ts' }],
        ['run_command', { command: 'npm test --workspace packages/api', timeoutMs: 120000 }],
        [
          'ask_question',
          {
            question: 'fastify is not installed. May I add it to packages/api and run npm install?',
            suggestions: ['Yes, install it', 'No, I will do it myself'],
          },
        ],
      ]);
      expect(results.map((part) => [part.toolCallId, part.isError])).toEqual(
        calls.map((part, index) => [part.toolCallId, index === 1]),
      );
    });

    it('saves again exactly as it was read', () => {
      const snapshot = ConversationMemory.fromSnapshot(fixture()).snapshot();

      expect(snapshot).toStrictEqual(fixture());
      // Same keys in the same order, so a saved session does not churn when it is loaded and saved again.
      expect(JSON.stringify(snapshot)).toBe(JSON.stringify(fixture()));
    });
  });
});
