import { AgentloopError } from './agentloop-error.js';

/**
 * What went wrong with a model API call, by what to do next:
 * retry — `rate_limit`, `overloaded`, `server_error`, `network`, `timeout` (idle stream), `stream_broken`;
 * compact — `context_length`;
 * stop — `authentication`, `permission`, `not_found`, `invalid_request`, `tools_unsupported`,
 * `invalid_response` (a body that is not what the API sends), `cancelled`, `unknown`.
 */
export type ProviderErrorCode =
  | 'rate_limit'
  | 'overloaded'
  | 'server_error'
  | 'network'
  | 'timeout'
  | 'stream_broken'
  | 'context_length'
  | 'authentication'
  | 'permission'
  | 'not_found'
  | 'invalid_request'
  | 'tools_unsupported'
  | 'invalid_response'
  | 'cancelled'
  | 'unknown';

const RETRYABLE: ReadonlySet<ProviderErrorCode> = new Set([
  'rate_limit',
  'overloaded',
  'server_error',
  'network',
  'timeout',
  'stream_broken',
]);

/** Options of a ProviderError. */
export interface ProviderErrorOptions {
  code: ProviderErrorCode;
  /** The provider's id, e.g. `anthropic`. */
  provider: string;
  cause?: unknown;
  statusCode?: number;
  retryAfterMs?: number;
  /** Overrides the retry decision the code implies (e.g. the server's `x-should-retry`). */
  retryable?: boolean;
}

/** A model API call failed. `retryable`, `retryAfterMs`, `statusCode` and `action` say what to do next. */
export class ProviderError extends AgentloopError<ProviderErrorCode> {
  /** The provider's id. */
  readonly provider: string;

  constructor(message: string, options: ProviderErrorOptions) {
    const retryable = options.retryable ?? RETRYABLE.has(options.code);
    super(message, {
      code: options.code,
      cause: options.cause,
      statusCode: options.statusCode,
      retryAfterMs: options.retryAfterMs,
      retryable,
      action: options.code === 'context_length' ? 'compact' : retryable ? 'retry' : 'stop',
    });
    this.provider = options.provider;
  }
}
