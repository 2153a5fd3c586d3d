import { AgentloopError, ProviderError, type ProviderErrorCode } from '@agentloop/spec';

/**
 * An error as a journal step records it: the fields a program acts on, as JSON. The loop records final
 * failures as values (a model call that failed after its retries, a tool that threw), so that a durable
 * engine never retries them, and restores them on replay with the same class, code and message.
 */
export interface RecordedError {
  readonly name: string;
  readonly message: string;
  readonly code: string;
  readonly retryable: boolean;
  readonly action: AgentloopError['action'];
  readonly statusCode?: number;
  readonly retryAfterMs?: number;
  /** The provider's id, for a ProviderError. */
  readonly provider?: string;
}

/** The error as a step records it. Never throws. */
export function recordError(thrown: unknown): RecordedError {
  const error = AgentloopError.from(thrown);
  return {
    name: error.name,
    message: error.message,
    code: error.code,
    retryable: error.retryable,
    action: error.action,
    ...(error.statusCode === undefined ? {} : { statusCode: error.statusCode }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    ...(error instanceof ProviderError || typeof (error as { provider?: unknown }).provider === 'string'
      ? { provider: (error as ProviderError).provider }
      : {}),
  };
}

/** The recorded error as an error again: a ProviderError when it was one, else an AgentloopError. */
export function restoreError(recorded: RecordedError): AgentloopError {
  const { message, code, retryable, statusCode, retryAfterMs, provider } = recorded;
  const details = {
    retryable,
    ...(statusCode === undefined ? {} : { statusCode }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
  if (provider !== undefined) {
    return new ProviderError(message, { code: code as ProviderErrorCode, provider, ...details });
  }
  return new AgentloopError(message, { code, action: recorded.action, ...details });
}
