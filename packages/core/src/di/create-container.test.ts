import { ConversationMemory } from '@agentloop/memory';
import { defineTool } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DefaultAgent } from '../agent/default-agent.js';
import { ScriptedProvider } from '../testing/index.js';
import { createContainer, provideTools, resolveAgent } from './create-container.js';
import type { Plugin } from './plugin.js';
import { TOKENS } from './tokens.js';

const weatherPlugin: Plugin = {
  name: 'weather',
  register(container) {
    provideTools(container, [
      defineTool({
        name: 'weather',
        description: 'Weather for a city',
        parameters: z.object({ city: z.string() }),
        execute: ({ city }) => `Sunny in ${city}`,
      }),
    ]);
  },
};

describe('createContainer', () => {
  it("resolves a working agent with the default services and the plugins' tools", async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'weather', arguments: { city: 'Oslo' } }] },
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'Sunny' } }] },
    ]);
    const container = await createContainer({
      provider,
      agentOptions: { systemPrompt: 'Be brief.', maxIterations: 4 },
      plugins: [weatherPlugin],
    });
    const agent = resolveAgent(container);
    expect(agent).toBeInstanceOf(DefaultAgent);
    expect(agent.tools.list().map((entry) => entry.tool.name)).toEqual([
      'task_completion',
      'ask_question',
      'converse',
      'weather',
    ]);
    const result = await agent.run('Weather in Oslo?');
    expect(result.exit).toBe('task_completion');
    expect(provider.requests[0]?.systemPrompt).toContain('Be brief.');
    expect(provider.requests[1]?.messages.at(-1)).toMatchObject({ content: [{ content: 'Sunny in Oslo' }] });
  });

  it('lets a plugin replace a default service by its token', async () => {
    const shared = new ConversationMemory();
    const plugin: Plugin = {
      name: 'memory',
      register: (container) => void container.register(TOKENS.Memory, { useValue: shared }),
    };
    const container = await createContainer({ provider: new ScriptedProvider([]), plugins: [plugin] });
    expect(resolveAgent(container).memory).toBe(shared);
  });

  it('gives each container its own registry and memory', async () => {
    const first = resolveAgent(await createContainer({ provider: new ScriptedProvider([]) }));
    const second = resolveAgent(await createContainer({ provider: new ScriptedProvider([]) }));
    expect(first.tools).not.toBe(second.tools);
    expect(first.memory).not.toBe(second.memory);
  });

  it('fails with a clear error when no provider is registered', async () => {
    const container = await createContainer();
    expect(() => resolveAgent(container)).toThrow(/No provider is registered/);
  });

  it('names the plugin that failed to register', async () => {
    const broken: Plugin = {
      name: 'broken',
      register: () => {
        throw new Error('missing config');
      },
    };
    await expect(createContainer({ plugins: [broken] })).rejects.toMatchObject({
      code: 'plugin_failed',
      message: 'Plugin "broken" failed to register: missing config',
    });
  });

  it('rejects a plugin listed twice', async () => {
    await expect(createContainer({ plugins: [weatherPlugin, weatherPlugin] })).rejects.toMatchObject({
      code: 'duplicate_plugin',
    });
  });
});
