import { ConversationMemory, DefaultTokenCounter } from '@agentloop/memory';
import { PromptBuilder } from '@agentloop/prompts';
import type { AnyLLMProvider } from '@agentloop/spec';
import { AgentloopError, describeThrown } from '@agentloop/spec';
import type { Tool } from '@agentloop/tools';
import { ToolRegistry } from '@agentloop/tools';
import type { DependencyContainer } from 'tsyringe';
import type { AgentOptions } from '../agent/agent-options.js';
import { DefaultAgent } from '../agent/default-agent.js';
import { batchedProvider } from '../loop/batched-provider.js';
import { loadTsyringe } from './load-tsyringe.js';
import type { Plugin } from './plugin.js';
import { containerBehind, type PluginContainer, pluginContainerOf } from './plugin-container.js';
import type { ServiceToken } from './service-token.js';
import { TOKENS } from './tokens.js';

/** Options of `createContainer`. */
export interface ContainerOptions {
  /** The provider to register under `TOKENS.Provider` (a `v1` provider is wrapped to speak `v2`). */
  provider?: AnyLLMProvider;
  /** Agent options (system prompt, limits); services come from the container. */
  agentOptions?: Omit<AgentOptions, 'tools' | 'memory' | 'promptBuilder' | 'tokenCounter'>;
  /** Plugins to load, in order. */
  plugins?: readonly Plugin[];
}

/**
 * The container of one composition: the provider, the agent options and the plugins, with the default
 * services registered. The ToolRegistry is the composition's (one for the container and its children, so
 * the plugins' tools reach every session); the PromptBuilder, the ConversationMemory and the
 * DefaultTokenCounter are one per container an agent is resolved from, so each session
 * (`createSessionContainer`) gets its own. Plugins are loaded last, so they can replace any default.
 */
export async function createContainer(options: ContainerOptions = {}): Promise<DependencyContainer> {
  const {
    container: rootContainer,
    instanceCachingFactory,
    instancePerContainerCachingFactory,
    Lifecycle,
  } = await loadTsyringe();
  const container = rootContainer.createChildContainer();
  // DefaultAgent carries no decorators (they would load tsyringe with core), so its injection is said here.
  container.register(DefaultAgent, { useFactory: buildAgent });
  container.register(TOKENS.ToolRegistry, { useFactory: instanceCachingFactory(() => new ToolRegistry()) });
  container.register(TOKENS.PromptBuilder, {
    useFactory: instancePerContainerCachingFactory(
      () =>
        new PromptBuilder({ ...options.agentOptions?.instructions, systemPrompt: options.agentOptions?.systemPrompt }),
    ),
  });
  container.register(TOKENS.Memory, { useClass: ConversationMemory }, { lifecycle: Lifecycle.ContainerScoped });
  container.register(TOKENS.TokenCounter, {
    useFactory: instancePerContainerCachingFactory(() => new DefaultTokenCounter()),
  });
  container.register(TOKENS.AgentOptions, { useFactory: (scope) => agentOptionsOf(scope, options.agentOptions) });
  if (options.provider) container.register(TOKENS.Provider, { useValue: batchedProvider(options.provider) });
  await loadPlugins(container, options.plugins ?? []);
  return container;
}

/**
 * A container for one session of a composition (a child of `createContainer`'s): an agent resolved from it
 * (`resolveAgent`) has a memory, a token counter, a prompt builder and the services plugins registered
 * (approval policy, compactor, session store, tracer) of its own, made when it is resolved, and the
 * composition's provider, options, plugins and tools. `disposeContainer` releases it without disposing the
 * composition's plugins.
 */
export function createSessionContainer(container: DependencyContainer): DependencyContainer {
  return container.createChildContainer();
}

/**
 * The agent's options: the options given, with each collaborator resolved from the container the agent is
 * resolved from, so that a plugin's replacement is the one the agent uses.
 */
function agentOptionsOf(scope: DependencyContainer, options: ContainerOptions['agentOptions'] = {}): AgentOptions {
  const registered = <Service>(token: ServiceToken<Service>): Service | undefined =>
    scope.isRegistered(token, true) ? scope.resolve(token) : undefined;
  const approval = registered(TOKENS.ApprovalPolicy);
  const store = registered(TOKENS.SessionStore);
  const compactor = registered(TOKENS.Compactor);
  const tracer = registered(TOKENS.Tracer);
  const journal = registered(TOKENS.Journal);
  return {
    ...options,
    tools: scope.resolve(TOKENS.ToolRegistry),
    memory: scope.resolve(TOKENS.Memory),
    promptBuilder: scope.resolve(TOKENS.PromptBuilder),
    tokenCounter: scope.resolve(TOKENS.TokenCounter),
    // A policy a plugin registered wins over the options' mode: the plugin was loaded to decide.
    ...(approval ? { approval } : {}),
    // A store a plugin registered keeps the agent's session, unless the options name one of their own.
    ...(options.session === undefined && store ? { session: { store } } : {}),
    // A compactor or a tracer a plugin registered is the one used, but `false` in the options (no automatic
    // compaction, no tracing) is the app's choice and stays.
    ...(compactor && options.compaction !== false ? { compaction: { ...options.compaction, compactor } } : {}),
    // A journal the options name is the app's own choice for this agent and wins over a plugin's.
    ...(journal && options.journal === undefined ? { journal } : {}),
    ...(tracer && options.tracing !== false
      ? { tracing: { ...(typeof options.tracing === 'object' ? options.tracing : {}), tracer } }
      : {}),
  };
}

/** The plugins loaded into each container, in load order, for disposeContainer. */
const loadedPlugins = new WeakMap<DependencyContainer, Plugin[]>();

/**
 * Loads plugins in order: registers each, then runs their `init` hooks in the same order, so that an
 * `init` can use what a later plugin registered. A plugin name seen twice is an error. When a plugin
 * fails (`plugin_failed`), the plugins already started are disposed, in reverse order, before it throws.
 */
export async function loadPlugins(container: DependencyContainer, plugins: readonly Plugin[]): Promise<void> {
  const loaded = loadedPlugins.get(container) ?? [];
  loadedPlugins.set(container, loaded);
  const seen = new Set(loaded.map((plugin) => plugin.name));
  for (const plugin of plugins) {
    if (seen.has(plugin.name))
      throw new AgentloopError(`Plugin "${plugin.name}" is listed twice.`, { code: 'duplicate_plugin' });
    seen.add(plugin.name);
  }
  const facade = pluginContainerOf(container);
  for (const plugin of plugins) await runHook(plugin, 'register', () => plugin.register(facade));
  const started: Plugin[] = [];
  try {
    for (const plugin of plugins) {
      await runHook(plugin, 'init', () => plugin.init?.(facade));
      started.push(plugin);
    }
  } catch (error) {
    await disposeAll(started);
    throw error;
  }
  loaded.push(...plugins);
}

/**
 * Releases what a container's plugins hold: their `dispose` hooks in reverse load order, every one of
 * them even when one fails, then the instances tsyringe created that are disposable. Throws a
 * `plugin_dispose_failed` AgentloopError naming the plugins that failed.
 */
export async function disposeContainer(container: DependencyContainer): Promise<void> {
  const plugins = loadedPlugins.get(container) ?? [];
  loadedPlugins.delete(container);
  await disposeAll(plugins);
  await container.dispose();
}

async function disposeAll(plugins: readonly Plugin[]): Promise<void> {
  const failures: string[] = [];
  let firstError: unknown;
  for (const plugin of [...plugins].reverse()) {
    try {
      await plugin.dispose?.();
    } catch (error) {
      failures.push(`"${plugin.name}": ${describeThrown(error)}`);
      firstError ??= error;
    }
  }
  if (failures.length > 0) {
    throw new AgentloopError(`Plugins failed to dispose: ${failures.join('; ')}`, {
      code: 'plugin_dispose_failed',
      cause: firstError,
    });
  }
}

async function runHook(plugin: Plugin, hook: 'register' | 'init', run: () => unknown): Promise<void> {
  try {
    await run();
  } catch (error) {
    throw new AgentloopError(`Plugin "${plugin.name}" failed to ${hook}: ${describeThrown(error)}`, {
      code: 'plugin_failed',
      cause: error,
    });
  }
}

/** Registers tools under `TOKENS.Tool`, for plugins. */
export function provideTools(container: PluginContainer, tools: readonly Tool[]): void {
  for (const tool of tools) container.register(TOKENS.Tool, () => tool);
}

/**
 * Resolves a DefaultAgent from a container (a composition's, a session's, or the one a plugin's factory was
 * given) and registers every tool provided under `TOKENS.Tool`.
 */
export function resolveAgent(from: DependencyContainer | PluginContainer): DefaultAgent {
  const container = containerBehind(from);
  if (!container.isRegistered(TOKENS.Provider, true)) {
    throw new AgentloopError(
      'No provider is registered: register one under TOKENS.Provider or pass `provider` to createContainer.',
      { code: 'no_provider' },
    );
  }
  // A container made elsewhere than createContainer has no DefaultAgent registered: it is built the same way.
  const agent = container.isRegistered(DefaultAgent, true) ? container.resolve(DefaultAgent) : buildAgent(container);
  const tools = container.isRegistered(TOKENS.Tool, true) ? container.resolveAll(TOKENS.Tool) : [];
  // The registry is the composition's, so a second resolve (another session's) finds the tools already there.
  for (const tool of tools) if (agent.tools.get(tool.name)?.tool !== tool) agent.registerTool(tool);
  return agent;
}

/** A DefaultAgent of the container's provider and agent options. */
function buildAgent(scope: DependencyContainer): DefaultAgent {
  return new DefaultAgent(scope.resolve(TOKENS.Provider), scope.resolve(TOKENS.AgentOptions));
}
