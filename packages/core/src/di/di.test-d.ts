import type { Memory } from '@agentloop/memory';
import type { PromptBuilder } from '@agentloop/prompts';
import type { LLMProvider } from '@agentloop/spec';
import type { Tool, ToolRegistry } from '@agentloop/tools';
import { container } from 'tsyringe';
import { describe, expectTypeOf, it } from 'vitest';
import type { AgentOptions } from '../agent/agent-options.js';
import type { Executor } from './executor.js';
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
