import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectChunks, jsonResponse, modelRequest, textOf, useFixtureServer } from '../test-support/index.js';
import { AnthropicProvider } from './anthropic-provider.js';
import { createAnthropicClient } from './create-anthropic-client.js';

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
