import type { TokenCountRequest } from '@agentloop/memory';
import { ConversationMemory, DefaultTokenCounter } from '@agentloop/memory';
import { defineTool } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DefaultAgent } from '../agent/default-agent.js';
import { ScriptedProvider } from '../testing/index.js';
import { createContainer, disposeContainer, provideTools, resolveAgent } from './create-container.js';
import { definePlugin, type Plugin } from './plugin.js';
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
      register: (container) => container.register(TOKENS.Memory, () => shared),
    };
    const container = await createContainer({ provider: new ScriptedProvider([]), plugins: [plugin] });
    expect(resolveAgent(container).memory).toBe(shared);
  });

  it('lets a plugin count tokens with its own TokenCounter', async () => {
    const counts: number[] = [];
    const counter = new (class extends DefaultTokenCounter {
      override countRequest(request: TokenCountRequest): number {
        const tokens = super.countRequest(request);
        counts.push(tokens);
        return tokens;
      }
    })();
    const plugin: Plugin = {
      name: 'counter',
      register: (container) => container.register(TOKENS.TokenCounter, () => counter),
    };
    const provider = new ScriptedProvider([{ toolCalls: [{ name: 'converse', arguments: { message: 'hi' } }] }]);
    const container = await createContainer({ provider, plugins: [plugin] });
    expect(container.resolve(TOKENS.TokenCounter)).toBe(counter);
    await resolveAgent(container).run('Hello');
    expect(counts.length).toBeGreaterThan(0);
  });

  it("resolves DefaultAgent by its class, built from the container's provider and options", async () => {
    const provider = new ScriptedProvider([]);
    const container = await createContainer({ provider, agentOptions: { systemPrompt: 'Be brief.' } });
    const agent = container.resolve(DefaultAgent);
    expect(agent).toBeInstanceOf(DefaultAgent);
    expect(agent.tools).toBe(container.resolve(TOKENS.ToolRegistry));
    expect(container.resolve(DefaultAgent)).not.toBe(agent);
  });

  it('resolves an agent from a container made without createContainer', async () => {
    // The polyfill goes first, as in load-tsyringe.ts.
    await import('./reflect-polyfill.js');
    const { container: root } = await import('tsyringe');
    const container = root.createChildContainer();
    const memory = new ConversationMemory();
    container.register(TOKENS.Provider, { useValue: new ScriptedProvider([]) });
    container.register(TOKENS.AgentOptions, { useValue: { memory } });
    expect(resolveAgent(container).memory).toBe(memory);
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

describe('plugin lifecycle', () => {
  /** A plugin that logs its hooks into `log`. */
  function tracing(name: string, log: string[], fail?: 'init' | 'dispose'): Plugin {
    return definePlugin({
      name,
      register: () => void log.push(`register ${name}`),
      init: () => {
        log.push(`init ${name}`);
        if (fail === 'init') throw new Error(`${name} cannot start`);
      },
      dispose: () => {
        log.push(`dispose ${name}`);
        if (fail === 'dispose') throw new Error(`${name} cannot stop`);
      },
    });
  }

  it('registers every plugin, then inits them in order, and disposes them in reverse order', async () => {
    const log: string[] = [];
    const container = await createContainer({ plugins: [tracing('a', log), tracing('b', log), tracing('c', log)] });
    expect(log).toEqual(['register a', 'register b', 'register c', 'init a', 'init b', 'init c']);
    await disposeContainer(container);
    expect(log.slice(6)).toEqual(['dispose c', 'dispose b', 'dispose a']);
  });

  it('lets an init use a service a later plugin registered', async () => {
    const seen: string[] = [];
    const reader = definePlugin({
      name: 'reader',
      register: () => {},
      init: (container) => void seen.push(container.resolve(TOKENS.AgentOptions).systemPrompt ?? ''),
    });
    const writer = definePlugin({
      name: 'writer',
      register: (container) => container.register(TOKENS.AgentOptions, () => ({ systemPrompt: 'from writer' })),
    });
    await createContainer({ plugins: [reader, writer] });
    expect(seen).toEqual(['from writer']);
  });

  it('disposes the plugins already started when an init fails, and names the one that failed', async () => {
    const log: string[] = [];
    const loading = createContainer({ plugins: [tracing('a', log), tracing('b', log, 'init'), tracing('c', log)] });
    await expect(loading).rejects.toMatchObject({
      code: 'plugin_failed',
      message: 'Plugin "b" failed to init: b cannot start',
    });
    expect(log).toEqual(['register a', 'register b', 'register c', 'init a', 'init b', 'dispose a']);
  });

  it('disposes every plugin even when one fails, then reports the failures', async () => {
    const log: string[] = [];
    const container = await createContainer({ plugins: [tracing('a', log), tracing('b', log, 'dispose')] });
    await expect(disposeContainer(container)).rejects.toMatchObject({
      code: 'plugin_dispose_failed',
      message: 'Plugins failed to dispose: "b": b cannot stop',
    });
    expect(log.slice(4)).toEqual(['dispose b', 'dispose a']);
  });

  it('lets a plugin provide the executor, resolved by its token', async () => {
    const runs: string[] = [];
    const executorPlugin = definePlugin({
      name: 'executor',
      register: (container) =>
        container.register(TOKENS.Executor, (scope) => ({
          run: async () => {
            runs.push(`ran ${resolveAgent(scope).tools.list().length} tools`);
            return 0;
          },
        })),
    });
    const container = await createContainer({ provider: new ScriptedProvider([]), plugins: [executorPlugin] });
    expect(await container.resolve(TOKENS.Executor).run()).toBe(0);
    expect(runs).toEqual(['ran 3 tools']);
  });
});
