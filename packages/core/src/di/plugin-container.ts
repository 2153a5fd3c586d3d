import { AgentloopError } from '@agentloop/spec';
import type { DependencyContainer } from 'tsyringe';
import type { ServiceToken } from './service-token.js';

/**
 * Makes a service. It gets the container the service is resolved from (a session's, where the composition
 * has sessions), to resolve what the service needs.
 */
export type ServiceFactory<Service> = (container: PluginContainer) => Service;

/**
 * What a plugin sees of the DI container: services by their typed token (`TOKENS`, or a plugin's own
 * `serviceToken`), and nothing of the library behind it.
 */
export interface PluginContainer {
  /**
   * Registers a service under its token, replacing the default (under `TOKENS.Tool`, adding one more tool).
   * The factory runs once per container the service is resolved from, so each session gets its own memory
   * or token counter; a service made outside the factory (`() => shared`) is shared by every session.
   * Throws an AgentloopError (`invalid_registration`) when `factory` is not a function.
   */
  register<Service>(token: ServiceToken<Service>, factory: ServiceFactory<Service>): void;
  /** The service under a token. Throws an AgentloopError (`service_not_registered`) naming a token none is registered under. */
  resolve<Service>(token: ServiceToken<Service>): Service;
}

/** The tsyringe container behind each facade, for core's own functions that take a facade (resolveAgent). */
const containers = new WeakMap<PluginContainer, DependencyContainer>();
/** One facade per container, so that a factory given the same container gets the same facade. */
const facades = new WeakMap<DependencyContainer, PluginContainer>();

/** The facade of a container, as plugins and factories see it. */
export function pluginContainerOf(container: DependencyContainer): PluginContainer {
  const known = facades.get(container);
  if (known) return known;
  const facade: PluginContainer = {
    register(token, factory) {
      if (typeof factory !== 'function') {
        throw new AgentloopError(
          `register(${describeToken(token)}, factory) takes a function that makes the service, got ${describeValue(factory)}; ` +
            'for a service made beforehand, write () => service.',
          { code: 'invalid_registration' },
        );
      }
      // tsyringe calls a factory with the container resolve was called on: a cache per container makes
      // the service one per session, not one per resolve.
      const made = new WeakMap<DependencyContainer, { service: ReturnType<typeof factory> }>();
      container.register(token, {
        useFactory: (scope) => {
          let entry = made.get(scope);
          if (!entry) {
            entry = { service: factory(pluginContainerOf(scope)) };
            made.set(scope, entry);
          }
          return entry.service;
        },
      });
    },
    resolve(token) {
      if (!container.isRegistered(token, true)) {
        throw new AgentloopError(
          `No service is registered under ${describeToken(token)}: a plugin registers one with ` +
            'container.register(token, factory) in its `register` hook, before any `init` resolves it.',
          { code: 'service_not_registered' },
        );
      }
      return container.resolve(token);
    },
  };
  facades.set(container, facade);
  containers.set(facade, container);
  return facade;
}

/**
 * The tsyringe container of a facade, or the container itself. Throws an AgentloopError (`invalid_container`)
 * for an object that is neither.
 */
export function containerBehind(container: DependencyContainer | PluginContainer): DependencyContainer {
  if ('createChildContainer' in container) return container;
  const behind = containers.get(container);
  if (!behind) {
    throw new AgentloopError(
      'This container was not made by @agentloop/core: pass the container a plugin hook or a factory was given, or one from createContainer.',
      { code: 'invalid_container' },
    );
  }
  return behind;
}

function describeToken(token: symbol): string {
  return typeof token === 'symbol' ? (token.description ?? 'a symbol') : String(token);
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return `an object with ${Object.keys(value).join(', ') || 'no keys'}`;
  return typeof value;
}
