import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  chunkFrames,
  collectChunks,
  collectUntilError,
  jsonResponse,
  modelRequest,
  readJsonFixture,
  sseResponse,
  textOf,
  useFixtureServer,
} from '../test-support/index.js';
import { AnthropicProvider } from './anthropic-provider.js';
import { createAnthropicClient } from './create-anthropic-client.js';

// The SDKs bind console's methods the first time they log through it, so the spy is set before any
// client of this file is made, and stays until its end.
const printed: unknown[][] = [];
for (const level of ['error', 'warn', 'info', 'debug', 'log'] as const)
  vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void printed.push(args));
afterAll(() => vi.restoreAllMocks());

const server = useFixtureServer();

const saved = { ...process.env };
let configDirectory = '';
beforeEach(() => {
  for (const name of Object.keys(process.env)) if (name.startsWith('ANTHROPIC_')) delete process.env[name];
  // The SDK's config directory, empty: a profile of the machine's user must not count.
  configDirectory = mkdtempSync(join(tmpdir(), 'agentloop-anthropic-config-'));
  process.env.ANTHROPIC_CONFIG_DIR = configDirectory;
});
afterEach(() => {
  process.env = { ...saved };
  rmSync(configDirectory, { recursive: true, force: true });
});

const notConfigured = { code: 'provider_not_configured', message: expect.stringMatching(/set ANTHROPIC_API_KEY/) };

function thrownBy(create: () => unknown): unknown {
  try {
    create();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('createAnthropicClient', () => {
  it("refuses Anthropic's API without a credential, a blank key included", () => {
    expect(thrownBy(() => createAnthropicClient({}))).toMatchObject(notConfigured);
    process.env.ANTHROPIC_API_KEY = '  ';
    expect(thrownBy(() => createAnthropicClient({ apiKey: '' }))).toMatchObject(notConfigured);
    process.env.ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
    expect(thrownBy(() => createAnthropicClient({}))).toMatchObject(notConfigured);
  });

  it('takes the key from the option or ANTHROPIC_API_KEY', () => {
    expect(createAnthropicClient({ apiKey: 'sk-option' }).apiKey).toBe('sk-option');
    process.env.ANTHROPIC_API_KEY = 'sk-environment';
    expect(createAnthropicClient({}).apiKey).toBe('sk-environment');
  });

  it('accepts an auth token instead of a key', () => {
    expect(createAnthropicClient({ clientOptions: { authToken: 'token-option' } }).authToken).toBe('token-option');
    process.env.ANTHROPIC_AUTH_TOKEN = 'token-environment';
    expect(createAnthropicClient({}).authToken).toBe('token-environment');
  });

  it('lets an auth token in clientOptions win over ANTHROPIC_API_KEY rather than clash with it', () => {
    process.env.ANTHROPIC_API_KEY = 'sk-environment';
    const client = createAnthropicClient({ clientOptions: { authToken: 'token-option' } });
    expect(client).toMatchObject({ authToken: 'token-option', apiKey: null });
  });

  it('leaves a proxy or gateway without a key to the SDK', () => {
    expect(createAnthropicClient({ baseURL: 'http://127.0.0.1:8080' }).baseURL).toBe('http://127.0.0.1:8080');
    process.env.ANTHROPIC_BASE_URL = 'https://gateway.example/anthropic';
    expect(createAnthropicClient({}).baseURL).toBe('https://gateway.example/anthropic');
  });

  it('reaches a gateway that needs no credential when the Authorization header is left out', async () => {
    server().reply(
      jsonResponse(200, {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-6',
        content: [{ type: 'text', text: 'hello' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 3, output_tokens: 1 },
      }),
    );
    const provider = new AnthropicProvider({
      model: 'claude-sonnet-4-6',
      baseURL: server().url,
      streaming: false,
      clientOptions: { defaultHeaders: { authorization: null }, logLevel: 'off' },
    });
    expect(textOf(await collectChunks(provider.stream(modelRequest())))).toBe('hello');
    expect(server().requests[0]?.headers).not.toHaveProperty('authorization');
    expect(server().requests[0]?.headers).not.toHaveProperty('x-api-key');
  });

  it('counts a credential header as a credential', () => {
    expect(createAnthropicClient({ headers: { 'X-Api-Key': 'sk-header' } }).apiKey).toBeNull();
    process.env.ANTHROPIC_CUSTOM_HEADERS = 'x-team: agents\nAuthorization: Bearer sk-custom';
    expect(createAnthropicClient({}).apiKey).toBeNull();
    process.env.ANTHROPIC_CUSTOM_HEADERS = 'x-team: agents';
    expect(thrownBy(() => createAnthropicClient({}))).toMatchObject(notConfigured);
  });

  it("leaves the SDK's profiles and workload identity to the SDK, which resolves them at the first request", () => {
    process.env.ANTHROPIC_PROFILE = 'work';
    expect(thrownBy(() => createAnthropicClient({}))).toBeUndefined();
    delete process.env.ANTHROPIC_PROFILE;
    process.env.ANTHROPIC_FEDERATION_RULE_ID = 'fdrl_1';
    process.env.ANTHROPIC_ORGANIZATION_ID = 'org_1';
    expect(thrownBy(() => createAnthropicClient({}))).toBeUndefined();
    delete process.env.ANTHROPIC_FEDERATION_RULE_ID;
    expect(thrownBy(() => createAnthropicClient({}))).toMatchObject(notConfigured);
    mkdirSync(join(configDirectory, 'configs'));
    writeFileSync(
      join(configDirectory, 'configs', 'default.json'),
      JSON.stringify({ authentication: { type: 'user_oauth' } }),
    );
    expect(thrownBy(() => createAnthropicClient({}))).toBeUndefined();
  });
});

describe('the SDK log of an Anthropic client', () => {
  const recordingLogger = () => {
    const calls: unknown[][] = [];
    const record =
      (level: string) =>
      (...args: unknown[]) =>
        void calls.push([level, ...args]);
    return {
      calls,
      logger: { error: record('error'), warn: record('warn'), info: record('info'), debug: record('debug') },
    };
  };

  it("sends the SDK's warnings to clientOptions.logger, and never to console", () => {
    printed.length = 0;
    process.env.ANTHROPIC_LOG = 'loud';
    createAnthropicClient({ apiKey: 'sk-test' });
    const { calls, logger } = recordingLogger();
    createAnthropicClient({ apiKey: 'sk-test', clientOptions: { logger } });
    expect(printed).toEqual([]);
    expect(calls).toEqual([
      ['warn', `process.env['ANTHROPIC_LOG'] was set to "loud", expected one of ["off","error","warn","info","debug"]`],
    ]);
  });

  it('keeps a malformed event, escape sequences and all, off the console', async () => {
    printed.length = 0;
    const malformed = 'event: content_block_delta\ndata: {"oops \x1b]52;c;ZXZpbA==\x07\x9b2J\n\n';
    const stream = async (clientOptions: { logger?: ReturnType<typeof recordingLogger>['logger'] }) => {
      server().reply(sseResponse([malformed]));
      const provider = new AnthropicProvider({
        model: 'claude-sonnet-4-6',
        apiKey: 'sk-test',
        baseURL: server().url,
        retry: { maxRetries: 0 },
        clientOptions,
      });
      return collectUntilError(provider.stream(modelRequest()));
    };
    expect((await stream({})).error).toBeDefined();
    const { calls, logger } = recordingLogger();
    await stream({ logger });
    expect(printed).toEqual([]);
    expect(calls[0]).toEqual(['error', 'Could not parse message into JSON:', '{"oops \x1b]52;c;ZXZpbA==\x07\x9b2J']);
  });

  describe("the SDK's deprecation warnings, which it prints with console.warn itself", () => {
    const DEPRECATED = 'claude-sonnet-4-5';
    const stream = async (
      clientOptions: { logger?: ReturnType<typeof recordingLogger>['logger']; logLevel?: 'off' | 'warn' },
      streaming = true,
    ) => {
      server().reply(sseResponse(chunkFrames('vercel-ai/anthropic-text.chunks.txt', 'anthropic')));
      const provider = new AnthropicProvider({
        model: DEPRECATED,
        apiKey: 'sk-test',
        baseURL: server().url,
        streaming,
        clientOptions,
      });
      return collectChunks(provider.stream(modelRequest()));
    };

    it.each([
      ['streamed', true],
      ['not streamed', false],
    ])('go to clientOptions.logger at level warn, not to the console (%s)', async (_case, streaming) => {
      printed.length = 0;
      const { calls, logger } = recordingLogger();
      if (!streaming) server().reply(jsonResponse(200, readJsonFixture('vercel-ai/anthropic-text.json')));
      const chunks = streaming
        ? await stream({ logger })
        : await collectChunks(
            new AnthropicProvider({
              model: DEPRECATED,
              apiKey: 'sk-test',
              baseURL: server().url,
              streaming: false,
              clientOptions: { logger },
            }).stream(modelRequest()),
          );
      expect(chunks.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' });
      expect(printed).toEqual([]);
      expect(calls).toEqual([
        ['warn', expect.stringMatching(/^The model 'claude-sonnet-4-5' is deprecated and will reach end-of-life/)],
      ]);
    });

    it('go nowhere without a logger, or with logLevel off', async () => {
      printed.length = 0;
      await stream({});
      const { calls, logger } = recordingLogger();
      await stream({ logger, logLevel: 'off' });
      expect(printed).toEqual([]);
      expect(calls).toEqual([]);
    });

    it('leave console.warn as it was once the request is sent', async () => {
      const before = console.warn;
      await stream({});
      expect(console.warn).toBe(before);
    });
  });
});
