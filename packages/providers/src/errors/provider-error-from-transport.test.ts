import dns from 'node:dns';
import { type AddressInfo, createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnthropicProvider } from '../anthropic/index.js';
import { OpenAIProvider } from '../openai/index.js';
import { chunksOfType, collectUntilError, modelRequest, testProviderOptions } from '../test-support/index.js';
import { providerErrorFromThrown, providerErrorFromTransport } from './provider-error-from-transport.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** A socket error as Node reports it. */
function socketError(code: string, address: string, port: number): Error {
  return Object.assign(new Error(`connect ${code} ${address}:${port}`), { code, address, port });
}

/** What undici throws when every address of a host failed: `fetch failed` around Node's AggregateError. */
function dualStackFailure(...attempts: Error[]): TypeError {
  return new TypeError('fetch failed', { cause: new AggregateError(attempts) });
}

/** Binds a port on every local address, then frees it: nothing listens there any more. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Makes `localhost` resolve to `::1` and `127.0.0.1`, as on a dual-stack host, whatever this machine's
 * hosts file says: Node then tries both and fails with an AggregateError.
 */
function resolveLocalhostToBothStacks(): void {
  const lookup = dns.lookup;
  const both = [
    { address: '::1', family: 6 },
    { address: '127.0.0.1', family: 4 },
  ];
  vi.spyOn(dns, 'lookup').mockImplementation(((...args: unknown[]) => {
    const [hostname, options, callback] = args;
    if (hostname === 'localhost' && typeof options === 'object' && options !== null && 'all' in options) {
      process.nextTick(callback as (error: null, addresses: typeof both) => void, null, both);
      return;
    }
    return Reflect.apply(lookup, dns, args);
  }) as unknown as typeof dns.lookup);
}

const ipv6Loopback = await new Promise<boolean>((resolve) => {
  const probe = createServer();
  probe.once('error', () => resolve(false));
  probe.listen(0, '::1', () => probe.close(() => resolve(true)));
});

describe('providerErrorFromTransport', () => {
  it.skipIf(!ipv6Loopback)(
    'fails at once when localhost refuses on both ::1 and 127.0.0.1 (no local server running)',
    async () => {
      resolveLocalhostToBothStacks();
      const port = await closedPort();
      const shared = testProviderOptions(`http://localhost:${port}/v1`);
      const provider = new OpenAIProvider({ model: 'llama3.1:8b', ...shared.options, retry: { maxRetries: 3 } });
      expect(provider.id).toBe('openai-compatible');
      const { error, chunks } = await collectUntilError(provider.stream(modelRequest()));
      expect(chunksOfType(chunks, 'retry')).toEqual([]);
      expect(error).toMatchObject({ code: 'network', retryable: false, action: 'stop' });
      expect((error as Error).message).toBe(
        `Cannot reach the server at http://localhost:${port}/v1: nothing is listening at [::1]:${port} or 127.0.0.1:${port}; is the local server running?`,
      );
    },
  );

  it('retries when only some of the addresses refused', () => {
    const error = providerErrorFromTransport(
      'test',
      dualStackFailure(socketError('ECONNREFUSED', '::1', 8080), socketError('ETIMEDOUT', '127.0.0.1', 8080)),
      'connect',
    );
    expect(error).toMatchObject({ code: 'network', retryable: true });
    expect(error.message).toBe(
      'Cannot reach test: connect ECONNREFUSED ::1:8080, and connect ETIMEDOUT 127.0.0.1:8080',
    );
  });

  it('retries a refused connection to a remote address', () => {
    const error = providerErrorFromTransport(
      'test',
      new TypeError('fetch failed', { cause: socketError('ECONNREFUSED', '10.0.0.7', 443) }),
      'connect',
    );
    expect(error).toMatchObject({ code: 'network', retryable: true });
  });

  it('reads a refused IPv4-mapped loopback address as local', () => {
    const error = providerErrorFromTransport(
      'test',
      dualStackFailure(socketError('ECONNREFUSED', '::ffff:127.0.0.1', 1234)),
      'connect',
    );
    expect(error).toMatchObject({ retryable: false });
    expect(error.message).toContain('nothing is listening at [::ffff:127.0.0.1]:1234');
  });
});

/** Makes every lookup of `host` fail as a name that does not exist does, without asking a DNS server. */
function resolveNothingFor(host: string, code = 'ENOTFOUND'): void {
  const lookup = dns.lookup;
  vi.spyOn(dns, 'lookup').mockImplementation(((...args: unknown[]) => {
    const [hostname, , callback] = args;
    if (hostname === host) {
      const error = Object.assign(new Error(`getaddrinfo ${code} ${host}`), { code, hostname: host });
      process.nextTick(callback as (error: Error) => void, error);
      return;
    }
    return Reflect.apply(lookup, dns, args);
  }) as unknown as typeof dns.lookup);
}

/** The first error and the retries of one model call to `baseURL`, through each vendor's SDK. */
async function failedCalls(baseURL: string) {
  const shared = testProviderOptions(baseURL).options;
  const providers = [
    new OpenAIProvider({ model: 'llama3.1:8b', ...shared, retry: { maxRetries: 3 } }),
    new AnthropicProvider({ model: 'claude-sonnet-4-6', ...shared, retry: { maxRetries: 3 } }),
  ];
  return Promise.all(
    providers.map(async (provider) => {
      const { error, chunks } = await collectUntilError(provider.stream(modelRequest()));
      return { error: error as Error & { code?: string; retryable?: boolean }, retries: chunksOfType(chunks, 'retry') };
    }),
  );
}

describe('a failure the next attempt would meet again', () => {
  it('is not retried when the host name does not resolve (ENOTFOUND)', async () => {
    resolveNothingFor('models.example.invalid');
    for (const { error, retries } of await failedCalls('http://models.example.invalid:8080/v1')) {
      expect(retries).toEqual([]);
      expect(error).toMatchObject({ code: 'network', retryable: false, action: 'stop' });
      expect(error.message).toBe(
        'Cannot reach the server at http://models.example.invalid:8080/v1: the host models.example.invalid is not found (ENOTFOUND); check the URL',
      );
    }
  });

  it('is retried when the lookup failed for now (EAI_AGAIN)', () => {
    const lookupFailed = new TypeError('fetch failed', {
      cause: Object.assign(new Error('getaddrinfo EAI_AGAIN api.openai.com'), { code: 'EAI_AGAIN' }),
    });
    const error = providerErrorFromTransport('openai', lookupFailed, 'connect');
    expect(error).toMatchObject({ code: 'network', retryable: true });
    expect(error.message).toBe('Cannot reach OpenAI: getaddrinfo EAI_AGAIN api.openai.com');
  });

  it('is not retried for a port fetch never connects to, nor for a URL that is not http(s)', async () => {
    const cases = [
      ['http://127.0.0.1:1/v1', 'fetch does not connect to that port (bad port); use the port the server listens on'],
      ['localhost:11434/v1', 'the URL is not an http:// or https:// URL (unknown scheme)'],
    ];
    for (const [baseURL, problem] of cases) {
      for (const { error, retries } of await failedCalls(baseURL ?? '')) {
        expect(retries, baseURL).toEqual([]);
        expect(error, baseURL).toMatchObject({ code: 'network', retryable: false });
        expect(error.message, baseURL).toMatch(
          new RegExp(`^Cannot reach the server at \\S+: ${escapeRegExp(problem ?? '')}$`),
        );
      }
    }
  });

  it('is not retried for a base URL that cannot be parsed', async () => {
    for (const { error, retries } of await failedCalls('http://127.0.0.1:99999/v1')) {
      expect(retries).toEqual([]);
      expect(error).toMatchObject({ code: 'network', retryable: false });
      expect(error.message).toBe(
        'Cannot reach the server at http://127.0.0.1:99999/v1: its URL is not valid (ERR_INVALID_URL)',
      );
    }
  });

  it('is not retried for a certificate that is not trusted', () => {
    const untrusted = new TypeError('fetch failed', {
      cause: Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }),
    });
    const error = providerErrorFromTransport(
      { provider: 'openai-compatible', baseURL: 'https://gpu.lan/v1' },
      untrusted,
      'connect',
    );
    expect(error).toMatchObject({ code: 'network', retryable: false });
    expect(error.message).toBe(
      'Cannot reach the server at https://gpu.lan/v1: its TLS certificate is not trusted, or it does not speak TLS (DEPTH_ZERO_SELF_SIGNED_CERT)',
    );
  });

  it("says what happened in one sentence, without the wrappers' words and full stops", () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const sdkError = Object.assign(new Error('Connection error.'), {
      cause: new TypeError('fetch failed', { cause: reset }),
    });
    const error = providerErrorFromTransport('anthropic', sdkError, 'connect');
    expect(error).toMatchObject({ retryable: true });
    expect(error.message).toBe('Cannot reach Anthropic: read ECONNRESET');
    const closed = new TypeError('terminated', {
      cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
    });
    expect(providerErrorFromTransport('openai', closed, 'stream').message).toBe(
      'The stream from OpenAI broke before the response was complete: other side closed (UND_ERR_SOCKET)',
    );
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

describe('a thrown value that cannot be turned into a string', () => {
  const hostile = {
    toString(): string {
      throw new Error('no');
    },
  };
  const throwingCause = Object.defineProperty(new Error('outer'), 'cause', {
    get() {
      throw new Error('no cause');
    },
  });

  it.each([
    ['Object.create(null)', Object.create(null)],
    ['an object whose toString throws', hostile],
  ])('is described, never rethrown, when an SDK rejects with %s', (_case, value) => {
    const error = providerErrorFromThrown('openai', value);
    expect([error.code, error.message]).toEqual([
      'unknown',
      'OpenAI: a thrown value that cannot be described ([object Object])',
    ]);
    expect(error.cause).toBe(value);
  });

  it('is described when a broken stream throws it', () => {
    const error = providerErrorFromTransport('anthropic', Object.create(null), 'stream');
    expect([error.code, error.message]).toEqual([
      'stream_broken',
      'The stream from Anthropic broke before the response was complete: a thrown value that cannot be described ([object Object])',
    ]);
  });

  it('keeps the message of an error whose cause getter throws', () => {
    expect(providerErrorFromThrown('openai', throwingCause).message).toBe('OpenAI: outer');
  });
});
