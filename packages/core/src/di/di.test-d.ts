import type { Memory } from '@agentloop/memory';
import type { PromptBuilder } from '@agentloop/prompts';
import type { LLMProvider } from '@agentloop/spec';
import { defineToolPlugin, type Tool, type ToolRegistry } from '@agentloop/tools';
import { container } from 'tsyringe';
import { describe, expectTypeOf, it } from 'vitest';
import type { AgentOptions } from '../agent/agent-options.js';
import type { Executor } from './executor.js';
import type { Plugin } from './plugin.js';
import type { PluginContainer } from './plugin-container.js';
import { serviceToken } from './service-token.js';
import { TOKENS } from './tokens.js';

describe('typed tokens', () => {
  it('resolve each service with its type, without a cast', () => {
    expectTypeOf(container.resolve(TOKENS.Memory)).toEqualTypeOf<Memory>();
    expectTypeOf(container.resolve(TOKENS.Provider)).toEqualTypeOf<LLMProvider>();
    expectTypeOf(container.resolve(TOKENS.ToolRegistry)).toEqualTypeOf<ToolRegistry>();
    expectTypeOf(container.resolve(TOKENS.PromptBuilder)).toEqualTypeOf<PromptBuilder>();
    expectTypeOf(container.resolve(TOKENS.AgentOptions)).toEqualTypeOf<AgentOptions>();
    expectTypeOf(container.resolve(TOKENS.Executor)).toEqualTypeOf<Executor>();
    expectTypeOf(container.resolveAll(TOKENS.Tool)).toEqualTypeOf<Tool[]>();
  });

  it("type a plugin's own token the same way", () => {
    const greeting = serviceToken<{ greet(name: string): string }>('Greeting');
    container.register(greeting, { useValue: { greet: (name: string) => `hello ${name}` } });
    expectTypeOf(container.resolve(greeting).greet('x')).toEqualTypeOf<string>();
  });
});

describe('the container a plugin sees', () => {
  it('resolves each service with its type, and registers a factory of that type only', () => {
    const container = {} as PluginContainer;
    expectTypeOf(container.resolve(TOKENS.Memory)).toEqualTypeOf<Memory>();
    expectTypeOf(container.resolve(TOKENS.Executor)).toEqualTypeOf<Executor>();
    // @ts-expect-error a factory of a string is no Memory
    container.register(TOKENS.Memory, () => 'not a memory');
    // @ts-expect-error tsyringe's providers are not the facade's
    container.register(TOKENS.Executor, { useValue: { run: async () => 0 } });
  });

  it("takes a tool package's plugin, which knows nothing of core", () => {
    expectTypeOf(defineToolPlugin({ name: 'none', tools: [] })).toExtend<Plugin>();
  });
});
