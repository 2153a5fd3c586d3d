import dns from 'node:dns';
import { type AddressInfo, createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
        `openai-compatible: nothing is listening at [::1]:${port} or 127.0.0.1:${port}; is the local server running?`,
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
    expect(error.message).toMatch(/^test: could not reach the API/);
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
      'openai: a thrown value that cannot be described ([object Object])',
    ]);
    expect(error.cause).toBe(value);
  });

  it('is described when a broken stream throws it', () => {
    const error = providerErrorFromTransport('anthropic', Object.create(null), 'stream');
    expect([error.code, error.message]).toEqual([
      'stream_broken',
      'anthropic: the stream broke before the response was complete (a thrown value that cannot be described ([object Object]))',
    ]);
  });

  it('keeps the message of an error whose cause getter throws', () => {
    expect(providerErrorFromThrown('openai', throwingCause).message).toBe('openai: outer');
  });
});
