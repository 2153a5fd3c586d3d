import { ConversationMemory } from '@agentloop/memory';
import { describe, expect, it } from 'vitest';
import { ScriptedProvider } from '../testing/index.js';
import { createContainer, createSessionContainer, disposeContainer, resolveAgent } from './create-container.js';
import { definePlugin, type Plugin } from './plugin.js';
import type { PluginContainer } from './plugin-container.js';
import { serviceToken } from './service-token.js';
import { TOKENS } from './tokens.js';

describe('the container a plugin sees', () => {
  it('is the facade, not the library behind it', async () => {
    const seen: PluginContainer[] = [];
    const plugin = definePlugin({ name: 'look', register: (container) => void seen.push(container) });
    await createContainer({ plugins: [plugin] });
    expect(Object.keys(seen[0] ?? {}).sort()).toEqual(['register', 'resolve']);
  });

  it('runs a factory once per container the service is resolved from', async () => {
    const made: number[] = [];
    const counter = serviceToken<{ id: number }>('test.Counter');
    const plugin = definePlugin({
      name: 'counter',
      register: (container) =>
        container.register(counter, () => {
          made.push(made.length);
          return { id: made.length };
        }),
    });
    const container = await createContainer({ plugins: [plugin] });
    const session = createSessionContainer(container);
    expect(container.resolve(counter)).toBe(container.resolve(counter));
    expect(session.resolve(counter)).toBe(session.resolve(counter));
    expect(session.resolve(counter)).not.toBe(container.resolve(counter));
    expect(made).toEqual([0, 1]);
  });

  it("gives a factory the container it is resolved from, to resolve the service's own needs", async () => {
    const greeting = serviceToken<string>('test.Greeting');
    const plugin = definePlugin({
      name: 'greeting',
      register: (container) =>
        container.register(greeting, (scope) => `${scope.resolve(TOKENS.AgentOptions).systemPrompt} Hello.`),
    });
    const container = await createContainer({ agentOptions: { systemPrompt: 'Be brief.' }, plugins: [plugin] });
    expect(container.resolve(greeting)).toBe('Be brief. Hello.');
  });

  it('refuses a registration that is not a factory, saying what to write', async () => {
    const memory = new ConversationMemory();
    const plugin: Plugin = {
      name: 'old-style',
      // A plugin written for tsyringe's own register, which a plain JS plugin module can still be.
      register: (container) => container.register(TOKENS.Memory, { useValue: memory } as never),
    };
    await expect(createContainer({ plugins: [plugin] })).rejects.toMatchObject({
      code: 'plugin_failed',
      message:
        'Plugin "old-style" failed to register: register(agentloop.Memory, factory) takes a function that makes ' +
        'the service, got an object with useValue; for a service made beforehand, write () => service.',
    });
  });

  it('names the token when nothing is registered under it', async () => {
    const missing = serviceToken<string>('test.Missing');
    const plugin = definePlugin({
      name: 'reader',
      register: () => {},
      init: (container) => void container.resolve(missing),
    });
    await expect(createContainer({ plugins: [plugin] })).rejects.toMatchObject({
      code: 'plugin_failed',
      message: expect.stringContaining('failed to init: No service is registered under agentloop.test.Missing'),
    });
  });

  it('lets resolveAgent take the container a factory was given', async () => {
    const agents: unknown[] = [];
    const plugin = definePlugin({
      name: 'executor',
      register: (container) =>
        container.register(TOKENS.Executor, (scope) => {
          agents.push(resolveAgent(scope));
          return { run: async () => 0 };
        }),
    });
    const container = await createContainer({ provider: new ScriptedProvider([]), plugins: [plugin] });
    container.resolve(TOKENS.Executor);
    expect(agents).toHaveLength(1);
    expect(() => resolveAgent({ register: () => {}, resolve: () => undefined as never })).toThrow(
      /not made by @agentloop\/core/,
    );
  });
});

describe('createSessionContainer', () => {
  it("gives each session its own memory, token counter and prompt builder, and the composition's tools", async () => {
    const provider = new ScriptedProvider([]);
    const container = await createContainer({ provider });
    const first = resolveAgent(createSessionContainer(container));
    const second = resolveAgent(createSessionContainer(container));
    expect(first.memory).not.toBe(second.memory);
    expect(first.prompts).not.toBe(second.prompts);
    expect(first.tools).toBe(second.tools);
    expect(first.provider).toBe(second.provider);
  });

  it("keeps the plugins' tools in every session", async () => {
    const shout = { name: 'shout', description: 'Shouts.', parameters: { type: 'object' }, execute: () => 'HEY' };
    const plugin = definePlugin({
      name: 'shout',
      register: (container) => container.register(TOKENS.Tool, () => shout),
    });
    const container = await createContainer({ provider: new ScriptedProvider([]), plugins: [plugin] });
    expect(resolveAgent(createSessionContainer(container)).tools.get('shout')?.tool).toBe(shout);
  });

  it("disposes a session without disposing the composition's plugins", async () => {
    const log: string[] = [];
    const plugin = definePlugin({ name: 'holder', register: () => {}, dispose: () => void log.push('disposed') });
    const container = await createContainer({ provider: new ScriptedProvider([]), plugins: [plugin] });
    await disposeContainer(createSessionContainer(container));
    expect(log).toEqual([]);
    await disposeContainer(container);
    expect(log).toEqual(['disposed']);
  });
});
