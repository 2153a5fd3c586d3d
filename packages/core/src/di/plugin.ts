import type { PluginContainer } from './plugin-container.js';

/**
 * A unit that adds services to a container: tools (a third-party tool package), or any other service
 * under its token (a memory, a compactor, an executor), replacing the default. It sees the container
 * through a small typed facade, `register(token, factory)` and `resolve(token)`. The CLI loads the plugins
 * its configuration names; `createContainer({ plugins })` loads an app's.
 *
 * A plugin that holds resources (a server connection, an open file) starts them in `init` and releases
 * them in `dispose`: `init` runs once every plugin is registered, in load order; `disposeContainer` runs
 * `dispose` in reverse order.
 */
export interface Plugin {
  /** A unique name, for messages and to avoid loading a plugin twice. */
  readonly name: string;
  /** Registers the plugin's services. */
  register(container: PluginContainer): void | Promise<void>;
  /** Starts what the plugin holds, once every plugin is registered; may resolve other plugins' services. */
  init?(container: PluginContainer): void | Promise<void>;
  /** Releases what `init` started. Called once, in reverse load order. */
  dispose?(): void | Promise<void>;
}

/** Defines a plugin, typing its hooks (an identity function: a plain object literal works too). */
export function definePlugin(plugin: Plugin): Plugin {
  return plugin;
}
