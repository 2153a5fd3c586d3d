import type { Compactor, Memory, MemorySnapshot } from '@agentloop/memory';
import { MEMORY_SCHEMA_VERSION } from '@agentloop/memory';
import type { Message } from '@agentloop/spec';
import { userMessage } from '@agentloop/spec';
import { defineTool } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { complete, echoTool, scriptedAgent } from '../test-support/agent-harness.js';

/** A store that restores into the same array, in place: allowed by the Memory contract. */
class InPlaceMemory implements Memory {
  readonly #messages: Message[] = [];
  append(...messages: Message[]): void {
    this.#messages.push(...messages);
  }
  messages(): readonly Message[] {
    return this.#messages;
  }
  clear(): void {
    this.#messages.length = 0;
  }
  snapshot(): MemorySnapshot {
    return { schemaVersion: MEMORY_SCHEMA_VERSION, messages: [...this.#messages] };
  }
  restore(snapshot: MemorySnapshot): void {
    this.#messages.splice(0, this.#messages.length, ...snapshot.messages);
  }
}

/** Empties every tool result but the last, as new messages: the history keeps its length and both ends. */
const emptyResults: Compactor = {
  async compact(request) {
    const last = request.messages.at(-1);
    const messages = request.messages.map(
      (message): Message =>
        message.role === 'tool' && message !== last
          ? { ...message, content: message.content.map((part) => ({ ...part, content: '[emptied]' })) }
          : message,
    );
    return {
      messages,
      strategy: 'empty-results',
      kept: { systemMessages: 0, firstUserMessage: true, recentMessages: 1 },
      summarizedMessages: 0,
      droppedMessages: 0,
      droppedToolResults: messages.length,
    };
  },
};

const echo = (text: string) => ({ toolCalls: [{ name: 'echo', arguments: { text } }] });

describe("a request's history", () => {
  it("is the request's own: a provider that changes it changes neither the memory nor the next request", async () => {
    const { agent, provider } = scriptedAgent(
      [
        (request) => {
          // A careless provider: edits the array it was given.
          const messages = request.messages as unknown[];
          messages.push(userMessage('injected'));
          messages.splice(0, 1);
          return echo('one');
        },
        complete('done'),
      ],
      { tools: [echoTool] },
    );

    const result = await agent.run('go');

    expect(result.exit).toBe('task_completion');
    expect(provider.request(1).messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(provider.request(1).messages[0]).toEqual(userMessage('go'));
    expect(agent.memory.messages().some((message) => JSON.stringify(message).includes('injected'))).toBe(false);
  });

  it('holds what was appended to the memory between runs, and what the memory lost in a clear', async () => {
    const { agent, provider } = scriptedAgent([complete('first'), complete('second'), complete('third')]);
    await agent.run('one');
    agent.memory.append(userMessage('a note from the app'));
    await agent.run('two');
    agent.memory.clear();
    await agent.run('three');

    const texts = (index: number) =>
      provider
        .request(index)
        .messages.flatMap((message) => message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])));
    expect(texts(1)).toEqual(['one', 'a note from the app', 'two']);
    expect(texts(2)).toEqual(['three']);
  });
});

describe('the history after a compaction', () => {
  it('is read again from the start, also from a memory that rewrote the same array in place', async () => {
    const readFile = defineTool({
      name: 'read_file',
      description: 'Reads a file.',
      parameters: z.object({ path: z.string() }),
      execute: ({ path }) => `${path}: ${'x'.repeat(3_500)}`,
    });
    // No usage reported: the agent estimates each request, so the reads fill the 10,000-token window.
    const usage = { inputTokens: 0, outputTokens: 0 };
    const read = (path: string) => ({ toolCalls: [{ name: 'read_file', arguments: { path } }], usage });
    const { agent, provider, events } = scriptedAgent(
      [...Array.from({ length: 14 }, (_, index) => read(`f${index}.ts`)), { ...complete('done'), usage }],
      {
        tools: [readFile],
        memory: new InPlaceMemory(),
        contextWindow: 10_000,
        maxIterations: 20,
        compaction: { compactor: emptyResults },
      },
    );

    const result = await agent.run('Read the files.');

    expect(result.exit).toBe('task_completion');
    // Compacted before the request of its iteration: that request is the first built from the rewrite.
    const compaction = events.find((event) => event.type === 'compaction-end');
    expect(compaction).toMatchObject({ reason: 'threshold', strategy: 'empty-results' });
    const iteration = (compaction as { iteration: number }).iteration;
    const sent = provider.request(iteration - 1).messages.filter((message) => message.role === 'tool');
    expect(sent.length).toBeGreaterThan(1);
    expect(sent.slice(0, -1).every((message) => JSON.stringify(message).includes('[emptied]'))).toBe(true);
  });
});

describe('a batch of chunks', () => {
  it('is read no further once a listener cancels the run: the rest of the batch is not shown or kept', async () => {
    const { agent, events } = scriptedAgent(
      [{ text: 'one two three', toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }],
      { tools: [echoTool] },
      { chunkSize: 4, batchSize: 10 },
    );
    agent.once('message-content', () => agent.cancel());
    const result = await agent.run('go');
    expect(result.exit).toBe('cancelled');
    // The whole answer came in one batch; only its first piece was shown before the cancel.
    expect(events.filter((event) => event.type === 'message-content').map((event) => event.text)).toEqual(['one ']);
    expect(events.some((event) => event.type === 'tool-call')).toBe(false);
    expect(agent.memory.messages().at(-1)).toMatchObject({
      role: 'assistant',
      content: [{ type: 'text', text: 'one ' }],
    });
  });
});
