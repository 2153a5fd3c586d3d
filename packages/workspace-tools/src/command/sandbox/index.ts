export type { BwrapRequest } from './bwrap-arguments.js';
export { bwrapArguments } from './bwrap-arguments.js';
export type { SandboxMode, SandboxOptions } from './sandbox-options.js';
export { HIDDEN_HOME_PATHS } from './sandbox-options.js';
export type { SandboxStatus } from './sandbox-status.js';
export { sandboxStatus } from './sandbox-status.js';
export { SandboxUnavailableError } from './sandbox-unavailable-error.js';
