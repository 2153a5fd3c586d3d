export type { CliErrorOptions } from './cli-error.js';
export { CliError } from './cli-error.js';
