// The CLI's own errors are thrown before its prompt appears, where importing @agentloop/core (about
// 150 ms: zod, the XML parser, tsyringe) would double the time to the prompt. @agentloop/spec holds the
// contracts only, with no dependencies, so the CLI's errors are real AgentloopErrors at no cost.
import { AgentloopError } from '@agentloop/spec';

/** Options of a CliError. */
export interface CliErrorOptions {
  /** Stable machine-readable code, e.g. `invalid_config`. */
  code: string;
  cause?: unknown;
}

/** A failure of the user's setup found by the CLI (configuration, provider, arguments): never retryable. */
export class CliError extends AgentloopError {
  constructor(message: string, options: CliErrorOptions) {
    super(message, { code: options.code, cause: options.cause, retryable: false, action: 'stop' });
  }
}
