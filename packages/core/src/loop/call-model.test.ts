import { userMessage } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { complete, echoTool, scriptedAgent } from '../test-support/agent-harness.js';

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
