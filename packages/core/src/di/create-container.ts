import './reflect-polyfill.js';
import { ConversationMemory } from '@agentloop/memory';
import { PromptBuilder } from '@agentloop/prompts';
import type { LLMProvider } from '@agentloop/spec';
import { AgentloopError } from '@agentloop/spec';
import type { Tool } from '@agentloop/tools';
import { ToolRegistry } from '@agentloop/tools';
import type { DependencyContainer } from 'tsyringe';
import { instancePerContainerCachingFactory, Lifecycle, container as rootContainer } from 'tsyringe';
import type { AgentOptions } from '../agent/agent-options.js';
import { DefaultAgent } from '../agent/default-agent.js';
import type { Plugin } from './plugin.js';
import { TOKENS } from './tokens.js';

/** Options of `createContainer`. */
export interface ContainerOptions {
  /** The provider to register under `TOKENS.Provider`. */
  provider?: LLMProvider;
  /** Agent options (system prompt, limits); services come from the container. */
  agentOptions?: Omit<AgentOptions, 'tools' | 'memory' | 'promptBuilder'>;
  /** Plugins to load, in order. */
  plugins?: readonly Plugin[];
}

/**
 * A child container with the default services registered: ToolRegistry, PromptBuilder and
 * ConversationMemory (one each per container), the agent options, and the provider when given.
 * Plugins are loaded last, so they can replace any default.
 */
export async function createContainer(options: ContainerOptions = {}): Promise<DependencyContainer> {
  const container = rootContainer.createChildContainer();
  container.register(TOKENS.ToolRegistry, { useFactory: instancePerContainerCachingFactory(() => new ToolRegistry()) });
  container.register(TOKENS.PromptBuilder, {
    useFactory: instancePerContainerCachingFactory(
      () =>
        new PromptBuilder({ ...options.agentOptions?.instructions, systemPrompt: options.agentOptions?.systemPrompt }),
    ),
  });
  container.register(TOKENS.Memory, { useClass: ConversationMemory }, { lifecycle: Lifecycle.ContainerScoped });
  container.register(TOKENS.AgentOptions, {
    useFactory: (scope): AgentOptions => ({
      ...options.agentOptions,
      tools: scope.resolve(TOKENS.ToolRegistry),
      memory: scope.resolve(TOKENS.Memory),
      promptBuilder: scope.resolve(TOKENS.PromptBuilder),
    }),
  });
  if (options.provider) container.register(TOKENS.Provider, { useValue: options.provider });
  await loadPlugins(container, options.plugins ?? []);
  return container;
}

/** Loads plugins in order; a plugin name seen twice is an error. */
export async function loadPlugins(container: DependencyContainer, plugins: readonly Plugin[]): Promise<void> {
  const seen = new Set<string>();
  for (const plugin of plugins) {
    if (seen.has(plugin.name))
      throw new AgentloopError(`Plugin "${plugin.name}" is listed twice.`, { code: 'duplicate_plugin' });
    seen.add(plugin.name);
    try {
      await plugin.register(container);
    } catch (error) {
      throw new AgentloopError(
        `Plugin "${plugin.name}" failed to register: ${error instanceof Error ? error.message : String(error)}`,
        { code: 'plugin_failed', cause: error },
      );
    }
  }
}

/** Registers tools under `TOKENS.Tool`, for plugins. */
export function provideTools(container: DependencyContainer, tools: readonly Tool[]): void {
  for (const tool of tools) container.register(TOKENS.Tool, { useValue: tool });
}

/** Resolves a DefaultAgent from a container and registers every tool provided under `TOKENS.Tool`. */
export function resolveAgent(container: DependencyContainer): DefaultAgent {
  if (!container.isRegistered(TOKENS.Provider, true)) {
    throw new AgentloopError(
      'No provider is registered: register one under TOKENS.Provider or pass `provider` to createContainer.',
      { code: 'no_provider' },
    );
  }
  const agent = container.resolve(DefaultAgent);
  const tools = container.isRegistered(TOKENS.Tool, true) ? container.resolveAll<Tool>(TOKENS.Tool) : [];
  // The registry is per container, so a second resolve finds the tools already there.
  for (const tool of tools) if (agent.tools.get(tool.name)?.tool !== tool) agent.registerTool(tool);
  return agent;
}
