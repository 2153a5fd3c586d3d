export type { ContainerOptions } from './create-container.js';
export { createContainer, loadPlugins, provideTools, resolveAgent } from './create-container.js';
export type { Plugin } from './plugin.js';
export { TOKENS } from './tokens.js';
