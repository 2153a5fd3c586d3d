import { describeThrown, ProviderError } from '@agentloop/spec';
import { invalidResponse } from './invalid-response.js';
import { MalformedEventError } from './malformed-event-error.js';
import { capitalized, type ErrorSource, providerLabel } from './provider-label.js';

/** Where a transport failure happened: before a response arrived, or while its body streamed. */
export type TransportStage = 'connect' | 'stream';

/**
 * Classifies a failure below HTTP: a timeout, a refused or reset connection, a body cut mid-stream or an
 * event that is not valid JSON. Most are retried (the next attempt sends the step again), but not what
 * the next attempt would meet again (see permanentProblem): a host name that does not resolve, a URL
 * fetch will not use (bad port, unknown scheme), a certificate that is not trusted, and a refused
 * connection to a loopback address, on every address `localhost` has. Nothing listening on a local port
 * means the server is not running: a server that is starting (vLLM loads its model before it listens)
 * takes longer than the few seconds of the retries, so waiting would only delay the message. A refused
 * connection to a remote host is retried: a service behind it may be restarting.
 *
 * The message is one sentence, `<what and who>: <the innermost cause>`, without the wrappers' words.
 */
export function providerErrorFromTransport(
  source: string | ErrorSource,
  error: unknown,
  stage: TransportStage,
  timedOut = false,
): ProviderError {
  const provider = typeof source === 'string' ? source : source.provider;
  const who = providerLabel(source);
  if (timedOut) {
    return new ProviderError(`The request to ${who} timed out`, { code: 'timeout', provider, cause: error });
  }
  if (error instanceof SyntaxError) {
    return new ProviderError(`The stream from ${who} sent a malformed event: ${reasonOf(error)}`, {
      code: 'stream_broken',
      provider,
      cause: error,
    });
  }
  if (stage === 'stream') {
    return new ProviderError(`The stream from ${who} broke before the response was complete: ${reasonOf(error)}`, {
      code: 'stream_broken',
      provider,
      cause: error,
    });
  }
  const refused = refusedLoopback(error);
  if (refused) {
    return new ProviderError(`Cannot reach ${who}: nothing is listening at ${refused}; is the local server running?`, {
      code: 'network',
      provider,
      cause: error,
      retryable: false,
    });
  }
  const permanent = permanentProblem(error);
  return new ProviderError(`Cannot reach ${who}: ${permanent ?? reasonOf(error)}`, {
    code: 'network',
    provider,
    cause: error,
    retryable: permanent === undefined,
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

// Certificates that are expired, self-signed, for another name or from an unknown issuer, and a TLS
// handshake with a server that does not speak TLS (an https:// URL for an http:// server).
const UNTRUSTED_TLS =
  /^(?:CERT_\w+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(?:GET_ISSUER_CERT\w*|VERIFY_LEAF_SIGNATURE)|ERR_TLS_CERT_ALTNAME_INVALID|ERR_SSL_\w+)$/;

/**
 * What makes a connection fail the same way on every attempt, in words, or undefined when another
 * attempt may succeed. `EAI_AGAIN` (a lookup that may work later) is not one; `ENOTFOUND` (the name does
 * not exist) is. `bad port` and `unknown scheme` are what fetch throws for a port it never connects to
 * and a URL that is not http(s).
 */
function permanentProblem(error: unknown): string | undefined {
  for (const current of causeChain(error)) {
    const { code, hostname, message } = current as Error & { code?: unknown; hostname?: unknown };
    if (code === 'ENOTFOUND') {
      return `the host ${typeof hostname === 'string' ? `${hostname} ` : ''}is not found (ENOTFOUND); check the URL`;
    }
    if (typeof code === 'string' && UNTRUSTED_TLS.test(code)) {
      return `its TLS certificate is not trusted, or it does not speak TLS (${code})`;
    }
    if (message === 'bad port')
      return 'fetch does not connect to that port (bad port); use the port the server listens on';
    if (message === 'unknown scheme') return 'the URL is not an http:// or https:// URL (unknown scheme)';
  }
  return undefined;
}

// 127.0.0.0/8, ::1, and 127.x written as an IPv4-mapped IPv6 address.
const LOOPBACK = /^(?:127\.|::1$|::ffff:127\.|localhost$)/i;

/**
 * Where a connection to a loopback address was refused (`host:port`, several joined by "or"), else
 * undefined. Looks down the cause chain, since the SDKs and undici wrap the socket error.
 */
function refusedLoopback(error: unknown): string | undefined {
  for (const current of causeChain(error)) {
    const refused = refusedAttempts(current) ?? refusedAt(current);
    if (refused) return refused;
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

/** The error and its causes, outermost first, at most five deep. Never throws: a getter that throws ends it. */
function causeChain(error: unknown): Error[] {
  const chain: Error[] = [];
  try {
    for (let current = error; current instanceof Error && chain.length < 5; current = current.cause)
      chain.push(current);
  } catch {
    // Getters that throw: what was read so far is the chain.
  }
  return chain;
}

/**
 * What happened, in the words of the innermost cause (`getaddrinfo EAI_AGAIN api.openai.com`, `other side
 * closed (UND_ERR_SOCKET)`), without the wrappers' words around it (the SDK's "Connection error.",
 * undici's "fetch failed") or its closing full stop, so that it ends a sentence. Never throws, whatever
 * was thrown.
 */
function reasonOf(error: unknown): string {
  const chain = causeChain(error);
  const innermost = chain.at(-1) ?? error;
  const attempts = attemptsOf(innermost);
  const text = attempts ?? describeThrown(innermost).replace(/[\s.]+$/, '');
  const code = codeOf(innermost);
  return code !== undefined && !text.includes(code) ? `${text} (${code})` : text;
}

/** The messages of an AggregateError's attempts (Node's for a host with several addresses), joined. */
function attemptsOf(error: unknown): string | undefined {
  try {
    const attempts = (error as { errors?: unknown }).errors;
    if (!Array.isArray(attempts) || attempts.length === 0) return undefined;
    return [...new Set(attempts.map((attempt) => describeThrown(attempt).replace(/[\s.]+$/, '')))].join(', and ');
  } catch {
    return undefined;
  }
}

function codeOf(error: unknown): string | undefined {
  try {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Maps an error that is not an API response: a broken transport is `stream_broken` (retried); a base URL
 * that cannot be parsed is `network`, not retried; anything else the SDK threw (missing credentials, its
 * own argument checks, a bug) stops at once with its message.
 */
export function providerErrorFromThrown(source: string | ErrorSource, error: unknown): ProviderError {
  const provider = typeof source === 'string' ? source : source.provider;
  if (isTransportFailure(error)) return providerErrorFromTransport(source, error, 'stream');
  if (error instanceof MalformedEventError) {
    const event = error.eventType === undefined ? 'an event without a type' : `its "${error.eventType}" event`;
    return invalidResponse(source, `${event} does not have the API's shape (${error.message})`);
  }
  if (codeOf(error) === 'ERR_INVALID_URL') {
    return new ProviderError(`Cannot reach ${providerLabel(source)}: its URL is not valid (ERR_INVALID_URL)`, {
      code: 'network',
      provider,
      cause: error,
      retryable: false,
    });
  }
  return new ProviderError(`${capitalized(providerLabel(source))}: ${reasonOf(error)}`, {
    code: 'unknown',
    provider,
    cause: error,
  });
}
