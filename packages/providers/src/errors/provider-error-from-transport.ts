import { describeThrown, ProviderError } from '@agentloop/spec';

/** Where a transport failure happened: before a response arrived, or while its body streamed. */
export type TransportStage = 'connect' | 'stream';

/**
 * Classifies a failure below HTTP: a timeout, a refused or reset connection, a body cut mid-stream or an
 * event that is not valid JSON. All are retried (the next attempt sends the step again) except a refused
 * connection to a loopback address, on every address `localhost` has: a local server that is not running.
 */
export function providerErrorFromTransport(
  provider: string,
  error: unknown,
  stage: TransportStage,
  timedOut = false,
): ProviderError {
  const reason = describe(error);
  if (timedOut) {
    return new ProviderError(`${provider}: the request timed out (${reason})`, {
      code: 'timeout',
      provider,
      cause: error,
    });
  }
  if (error instanceof SyntaxError) {
    return new ProviderError(`${provider}: the stream sent a malformed event (${reason})`, {
      code: 'stream_broken',
      provider,
      cause: error,
    });
  }
  if (stage === 'stream') {
    return new ProviderError(`${provider}: the stream broke before the response was complete (${reason})`, {
      code: 'stream_broken',
      provider,
      cause: error,
    });
  }
  const refused = refusedLoopback(error);
  if (refused) {
    // Nothing listens on a local port: a server that is not running will not start within the retries.
    return new ProviderError(`${provider}: nothing is listening at ${refused}; is the local server running?`, {
      code: 'network',
      provider,
      cause: error,
      retryable: false,
    });
  }
  return new ProviderError(`${provider}: could not reach the API (${reason})`, {
    code: 'network',
    provider,
    cause: error,
  });
}

/**
 * True for what a broken connection or body throws: undici's `terminated` / `fetch failed`, socket error
 * codes, a malformed event. Anything else an SDK throws (missing credentials, its own argument checks)
 * would fail the same way on every attempt.
 */
export function isTransportFailure(error: unknown): boolean {
  try {
    for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
      if (current instanceof SyntaxError) return true;
      const code = (current as { code?: unknown }).code;
      if (typeof code === 'string' && /^(E[A-Z]+|UND_ERR_\w+)$/.test(code)) return true;
      if (current instanceof TypeError && /^(terminated|fetch failed)$/.test(current.message)) return true;
    }
  } catch {
    // A value whose getters throw is no socket error, and classifying a failure must not fail.
  }
  return false;
}

// 127.0.0.0/8, ::1, and 127.x written as an IPv4-mapped IPv6 address.
const LOOPBACK = /^(?:127\.|::1$|::ffff:127\.|localhost$)/i;

/**
 * Where a connection to a loopback address was refused (`host:port`, several joined by "or"), else
 * undefined. Looks down the cause chain, since the SDKs and undici wrap the socket error.
 */
function refusedLoopback(error: unknown): string | undefined {
  try {
    for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
      const refused = refusedAttempts(current) ?? refusedAt(current);
      if (refused) return refused;
    }
  } catch {
    // Getters that throw: not a socket error.
  }
  return undefined;
}

/**
 * For `localhost` with both `::1` and `127.0.0.1`, Node tries each address and throws an AggregateError
 * holding one error per attempt. Only when every attempt was refused is nothing listening: an attempt
 * that timed out says the network is in the way, and that may pass.
 */
function refusedAttempts(error: Error): string | undefined {
  const attempts = (error as Error & { errors?: unknown }).errors;
  if (!Array.isArray(attempts) || attempts.length === 0) return undefined;
  const refused = attempts.map((attempt) => (attempt instanceof Error ? refusedAt(attempt) : undefined));
  return refused.every((address) => address !== undefined) ? [...new Set(refused)].join(' or ') : undefined;
}

/** `host:port` of one socket error that is a refused connection to a loopback address. */
function refusedAt(error: Error): string | undefined {
  const { code, address, port } = error as Error & { code?: string; address?: string; port?: number };
  if (code !== 'ECONNREFUSED' || address === undefined || !LOOPBACK.test(address)) return undefined;
  const host = address.includes(':') ? `[${address}]` : address;
  return `${host}:${port ?? ''}`;
}

/** The error's message and its cause's code or message. Never throws, whatever was thrown. */
function describe(error: unknown): string {
  const text = describeThrown(error);
  try {
    const cause = error instanceof Error ? error.cause : undefined;
    if (!(cause instanceof Error)) return text;
    const code = (cause as Error & { code?: unknown }).code;
    return `${text}: ${typeof code === 'string' ? code : describeThrown(cause)}`;
  } catch {
    return text;
  }
}

/**
 * Maps an error that is not an API response: a broken transport is `stream_broken` (retried); anything
 * else the SDK threw (missing credentials, its own argument checks, a bug) stops at once with its message.
 */
export function providerErrorFromThrown(provider: string, error: unknown): ProviderError {
  if (isTransportFailure(error)) return providerErrorFromTransport(provider, error, 'stream');
  return new ProviderError(`${provider}: ${describe(error)}`, { code: 'unknown', provider, cause: error });
}
