export type { DependencyContainer } from 'tsyringe';
export type { ContainerOptions } from './create-container.js';
export {
  createContainer,
  createSessionContainer,
  disposeContainer,
  loadPlugins,
  provideTools,
  resolveAgent,
} from './create-container.js';
export type { Executor } from './executor.js';
export type { Plugin } from './plugin.js';
export { definePlugin } from './plugin.js';
export type { PluginContainer, ServiceFactory } from './plugin-container.js';
export type { ServiceToken } from './service-token.js';
export { serviceToken } from './service-token.js';
export { TOKENS } from './tokens.js';
