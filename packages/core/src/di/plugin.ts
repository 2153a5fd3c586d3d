import type { DependencyContainer } from 'tsyringe';

/**
 * A unit that adds services to a container: a third-party tool package exports one that registers its
 * tools under `TOKENS.Tool`; the CLI loads the plugins its configuration names.
 */
export interface Plugin {
  /** A unique name, for messages and to avoid loading a plugin twice. */
  readonly name: string;
  /** Registers the plugin's services. */
  register(container: DependencyContainer): void | Promise<void>;
}
