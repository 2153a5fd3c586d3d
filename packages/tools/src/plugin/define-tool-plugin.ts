import type { Tool } from '../tool.js';

/**
 * The injection token under which plugins provide tools. It is a registered symbol, so a third-party tool
 * package can use it without depending on @agentloop/core (core's `TOKENS.Tool` is the same symbol).
 */
export const TOOL_TOKEN: symbol = Symbol.for('agentloop.Tool');

/**
 * The part of the container a plugin sees (core's `PluginContainer`) that a tool plugin uses: `register(token,
 * factory)`. Declared here so that a tool package needs no @agentloop/core.
 */
export interface ToolContainer {
  register(token: symbol, factory: () => unknown): unknown;
}

/** A plugin that provides tools: what a third-party tool package exports. */
export interface ToolPlugin {
  readonly name: string;
  /** The tools the plugin provides. */
  readonly tools: readonly Tool[];
  /** Registers the tools in a container under `TOOL_TOKEN`. */
  register(container: ToolContainer): void;
}

/**
 * Defines a plugin that provides tools. It satisfies core's `Plugin` contract, so the CLI and
 * `createContainer({ plugins })` can load it, while the package that exports it depends on
 * @agentloop/tools (and zod) alone.
 */
export function defineToolPlugin(config: { name: string; tools: readonly Tool[] }): ToolPlugin {
  const tools = [...config.tools];
  return {
    name: config.name,
    tools,
    register(container) {
      for (const tool of tools) container.register(TOOL_TOKEN, () => tool);
    },
  };
}
