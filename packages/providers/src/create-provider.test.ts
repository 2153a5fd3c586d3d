import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentloopError } from '@agentloop/spec';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from './anthropic/index.js';
import { createProvider } from './create-provider.js';
import { GoogleProvider } from './google/index.js';
import { OpenAIProvider, OpenAIResponsesProvider } from './openai/index.js';
import { optionalProviderFromEnvironment, providerFromEnvironment } from './provider-from-environment.js';
import {
  anthropicAnswer,
  collectChunks,
  FixtureServer,
  modelRequest,
  sseResponse,
  textOf,
} from './test-support/index.js';

const saved = { ...process.env };
// An empty config directory, so that no Anthropic profile of the machine's user counts as a credential.
const emptyConfigDirectory = mkdtempSync(join(tmpdir(), 'agentloop-anthropic-config-'));
beforeEach(() => {
  for (const name of Object.keys(process.env))
    if (/^(ANTHROPIC|OPENAI|GEMINI|GOOGLE)_/.test(name)) delete process.env[name];
  process.env.ANTHROPIC_CONFIG_DIR = emptyConfigDirectory;
});
afterEach(() => {
  process.env = { ...saved };
});
afterAll(() => {
  rmSync(emptyConfigDirectory, { recursive: true, force: true });
});

describe('createProvider', () => {
  it('creates the provider a spec names, with the model table behind its capabilities', async () => {
    const anthropic = await createProvider('anthropic:claude-sonnet-4-6', { apiKey: 'k' });
    expect(anthropic).toBeInstanceOf(AnthropicProvider);
    expect(anthropic.capabilities).toMatchObject({
      modelId: 'claude-sonnet-4-6',
      contextWindow: 200_000,
      nativeTools: true,
      reasoning: true,
    });
    const openai = await createProvider('openai:gpt-4o', { apiKey: 'k' });
    expect(openai).toBeInstanceOf(OpenAIProvider);
    expect(openai.id).toBe('openai');
    expect(await createProvider('openai-responses:gpt-5', { apiKey: 'k' })).toBeInstanceOf(OpenAIResponsesProvider);
    const gemini = await createProvider('google:gemini-2.5-pro', { apiKey: 'k' });
    expect(gemini).toBeInstanceOf(GoogleProvider);
    expect(gemini.id).toBe('google');
    expect(gemini.capabilities).toMatchObject({ modelId: 'gemini-2.5-pro', contextWindow: 1_048_576, reasoning: true });
  });

  it('says which variable to set when Google is asked for without a key', async () => {
    const error = await createProvider('google:gemini-2.5-flash').catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: 'provider_not_configured' });
    expect((error as Error).message).toBe(
      'Gemini needs an API key: set GEMINI_API_KEY (or GOOGLE_API_KEY) or pass the apiKey option.',
    );
  });

  it('keeps the colons of a local model name and needs no key for a compatible server', async () => {
    const local = await createProvider('openai-compatible:llama3.1:8b', {
      baseURL: 'http://127.0.0.1:11434/v1',
      modelInfo: { contextWindow: 131_072 },
    });
    expect(local.id).toBe('openai-compatible');
    expect(local.capabilities).toMatchObject({
      modelId: 'llama3.1:8b',
      contextWindow: 131_072,
      parallelToolCalls: false,
    });
  });

  it("reports the model family's facts, corrected by an app's `models` entry before `modelInfo`", async () => {
    const gpt5 = await createProvider('openai-responses:gpt-5-codex', { apiKey: 'k' });
    expect(gpt5.capabilities).toMatchObject({ family: 'gpt-5', editTool: 'apply_patch', contextWindow: 400_000 });
    const claude = await createProvider('anthropic:claude-sonnet-4-6', { apiKey: 'k' });
    expect(claude.capabilities).toMatchObject({ family: 'claude', editTool: 'edit_file' });

    const models = {
      qwen3: { contextWindow: 40_960, parallelToolCalls: true, editTool: 'apply_patch' as const },
      'qwen3-coder:30b': { contextWindow: 262_144, pricing: { inputUsdPerMillion: 0.1, outputUsdPerMillion: 0.3 } },
    };
    const local = await createProvider('openai-compatible:qwen3-coder:30b', {
      baseURL: 'http://127.0.0.1:11434/v1',
      models,
      modelInfo: { instructions: 'Answer briefly.' },
    });
    expect(local.capabilities).toEqual({
      modelId: 'qwen3-coder:30b',
      nativeTools: true,
      parallelToolCalls: false,
      stopSequences: true,
      reasoning: false,
      contextWindow: 262_144,
      pricing: { inputUsdPerMillion: 0.1, outputUsdPerMillion: 0.3 },
      editTool: 'edit_file',
      instructions: 'Answer briefly.',
    });
    const family = await createProvider('openai-compatible:qwen3:8b', { baseURL: 'http://127.0.0.1:11434/v1', models });
    expect(family.capabilities).toMatchObject({
      contextWindow: 40_960,
      parallelToolCalls: true,
      editTool: 'apply_patch',
    });
  });

  it('says which variable to set when OpenAI is asked for without a key', async () => {
    for (const spec of ['openai:gpt-4o', 'openai-responses:gpt-5-mini']) {
      const error = await createProvider(spec).catch((thrown: unknown) => thrown);
      expect(AgentloopError.isInstance(error), spec).toBe(true);
      expect(error, spec).toMatchObject({ code: 'provider_not_configured', retryable: false });
      expect((error as Error).message, spec).toMatch(/set OPENAI_API_KEY or pass the apiKey option/);
    }
    process.env.OPENAI_API_KEY = ' ';
    expect(() => new OpenAIProvider({ model: 'gpt-4o' })).toThrow(/OPENAI_API_KEY/);
  });

  it('keeps needing no key for an OpenAI-compatible server, a blank OPENAI_API_KEY included', () => {
    process.env.OPENAI_API_KEY = '';
    const local = new OpenAIProvider({ model: 'qwen3:8b', baseURL: 'http://127.0.0.1:11434/v1' });
    expect(local.id).toBe('openai-compatible');
  });

  it('says which variable to set when Anthropic is asked for without a key', async () => {
    await expect(createProvider('anthropic:claude-sonnet-4-6')).rejects.toMatchObject({
      code: 'provider_not_configured',
      message: expect.stringMatching(/set ANTHROPIC_API_KEY or pass the apiKey option/),
    });
    process.env.ANTHROPIC_AUTH_TOKEN = 'token';
    expect((await createProvider('anthropic:claude-sonnet-4-6')).id).toBe('anthropic');
  });

  it('rejects a spec it cannot read', async () => {
    await expect(createProvider('claude-sonnet-4-6')).rejects.toMatchObject({ code: 'invalid_provider_spec' });
    await expect(createProvider('gemini:pro')).rejects.toMatchObject({ code: 'invalid_provider_spec' });
    await expect(createProvider('openai-compatible:qwen3')).rejects.toThrow(/OPENAI_BASE_URL/);
  });
});

describe('providerFromEnvironment', () => {
  it('picks Anthropic when ANTHROPIC_API_KEY is set', async () => {
    const provider = await providerFromEnvironment({ env: { ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' } });
    expect(provider.id).toBe('anthropic');
    expect(provider.capabilities.modelId).toBe('claude-sonnet-4-6');
  });

  it('picks Anthropic from ANTHROPIC_AUTH_TOKEN, sent as a bearer token', async () => {
    const server = await FixtureServer.start();
    try {
      server.reply(sseResponse(anthropicAnswer({ text: 'Hi' })));
      const env = { ANTHROPIC_AUTH_TOKEN: 'sk-ant-oat-token', ANTHROPIC_BASE_URL: server.url };
      const provider = await providerFromEnvironment({ env, retry: { maxRetries: 0 } });
      expect(provider.id).toBe('anthropic');
      expect(textOf(await collectChunks(provider.stream(modelRequest())))).toBe('Hi');
      expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-ant-oat-token');
      expect(await optionalProviderFromEnvironment({ env })).toBeInstanceOf(AnthropicProvider);
    } finally {
      await server.close();
    }
  });

  it('lets an API key, passed or in the environment, or an authorization header win over ANTHROPIC_AUTH_TOKEN', async () => {
    const server = await FixtureServer.start();
    try {
      const cases = [
        { env: { ANTHROPIC_API_KEY: 'sk-env' }, options: {} },
        { env: {}, options: { apiKey: 'sk-passed' } },
        { env: { ANTHROPIC_API_KEY: '  ' }, options: {} },
        { env: {}, options: { headers: { Authorization: 'Bearer mine' } } },
      ];
      for (const { env, options } of cases) {
        server.reply(sseResponse(anthropicAnswer({ text: 'Hi' })));
        const provider = await providerFromEnvironment({
          env: { ANTHROPIC_AUTH_TOKEN: 'tok-env', ANTHROPIC_BASE_URL: server.url, ...env },
          ...options,
        });
        await collectChunks(provider.stream(modelRequest()));
      }
      // This SDK sends an API key as a bearer token too.
      expect(server.requests.map(({ headers }) => headers.authorization)).toEqual([
        'Bearer sk-env',
        'Bearer sk-passed',
        'Bearer tok-env',
        'Bearer mine',
      ]);
    } finally {
      await server.close();
    }
  });

  it('picks an OpenAI-compatible server from OPENAI_BASE_URL with OPENAI_MODEL', async () => {
    const provider = await providerFromEnvironment({
      env: { OPENAI_BASE_URL: 'http://localhost:11434/v1', OPENAI_MODEL: 'qwen3:8b' },
    });
    expect(provider.id).toBe('openai-compatible');
    expect(provider.capabilities.modelId).toBe('qwen3:8b');
  });

  it('picks Google from GEMINI_API_KEY, with the default model and the key it found', async () => {
    const server = await FixtureServer.start();
    try {
      const frame = { candidates: [{ content: { role: 'model', parts: [{ text: 'Hi.' }] }, finishReason: 'STOP' }] };
      server.reply(sseResponse([`data: ${JSON.stringify(frame)}\n\n`]));
      const provider = await providerFromEnvironment({
        env: { GOOGLE_API_KEY: 'other', GEMINI_API_KEY: 'gm', GOOGLE_GEMINI_BASE_URL: server.url },
      });
      expect(provider).toBeInstanceOf(GoogleProvider);
      expect(provider.capabilities.modelId).toBe('gemini-2.5-flash');
      expect(textOf(await collectChunks(provider.stream(modelRequest())))).toBe('Hi.');
      expect(server.requests[0]?.headers['x-goog-api-key']).toBe('gm');
    } finally {
      await server.close();
    }
  });

  it('picks OpenAI from OPENAI_API_KEY', async () => {
    const provider = await providerFromEnvironment({ env: { OPENAI_API_KEY: 'o' }, model: 'gpt-4.1' });
    expect(provider).toBeInstanceOf(OpenAIProvider);
    expect(provider.capabilities.contextWindow).toBe(1_047_576);
  });

  it('lets a spec in model choose the provider', async () => {
    const provider = await providerFromEnvironment({
      env: { ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' },
      model: 'openai-responses:gpt-5-mini',
    });
    expect(provider).toBeInstanceOf(OpenAIResponsesProvider);
  });

  it('sends an OpenAI model to OpenAI even when ANTHROPIC_API_KEY is set', async () => {
    for (const model of ['gpt-4o', 'o3', 'gpt-5-mini', 'chatgpt-4o-latest', 'codex-mini-latest']) {
      const provider = await providerFromEnvironment({ env: { ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' }, model });
      expect(provider.id, model).toBe('openai');
      expect(provider.capabilities.modelId, model).toBe(model);
    }
  });

  it('names the missing key when the model belongs to the vendor without one', async () => {
    for (const model of ['gpt-4o', 'o3', 'gpt-5-mini'])
      await expect(providerFromEnvironment({ env: { ANTHROPIC_API_KEY: 'a' }, model }), model).rejects.toMatchObject({
        code: 'provider_not_configured',
        message: expect.stringMatching(/is an OpenAI model: set OPENAI_API_KEY/),
      });
    await expect(
      providerFromEnvironment({ env: { OPENAI_API_KEY: 'o' }, model: 'claude-opus-4-1' }),
    ).rejects.toMatchObject({
      code: 'provider_not_configured',
      message: '"claude-opus-4-1" is an Anthropic model: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN).',
    });
  });

  it('still lets an OpenAI-compatible server serve a model named like an OpenAI one', async () => {
    const provider = await providerFromEnvironment({
      env: { ANTHROPIC_API_KEY: 'a', OPENAI_BASE_URL: 'http://localhost:11434/v1' },
      model: 'gpt-oss:20b',
    });
    expect(provider.id).toBe('openai-compatible');
    expect(provider.capabilities.modelId).toBe('gpt-oss:20b');
  });

  it('keeps the documented order for a name of no known vendor, and lets a spec override the name', async () => {
    const env = { ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o', OPENAI_BASE_URL: 'http://localhost:11434/v1' };
    expect((await providerFromEnvironment({ env, model: 'qwen3:8b' })).id).toBe('anthropic');
    const gateway = await providerFromEnvironment({ env: { ANTHROPIC_API_KEY: 'a' }, model: 'anthropic:gpt-4o' });
    expect(gateway).toBeInstanceOf(AnthropicProvider);
  });

  it('says which key a spec needs when it is missing', async () => {
    await expect(providerFromEnvironment({ env: { ANTHROPIC_API_KEY: 'a' }, model: 'openai:gpt-4o' })).rejects.toThrow(
      /OPENAI_API_KEY/,
    );
  });

  it('says what to set when nothing is configured', async () => {
    await expect(providerFromEnvironment({ env: {} })).rejects.toMatchObject({ code: 'provider_not_configured' });
    await expect(providerFromEnvironment({ env: { OPENAI_BASE_URL: 'http://localhost:8000/v1' } })).rejects.toThrow(
      'No model is set for the server at http://localhost:8000/v1: set OPENAI_MODEL, or pass the `model` option (it lists its models at http://localhost:8000/v1/models).',
    );
  });

  it("asks a server that is not OpenAI for a model even with OPENAI_API_KEY set, rather than guessing OpenAI's", async () => {
    const env = { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'https://gw.example/v1' };
    await expect(providerFromEnvironment({ env })).rejects.toMatchObject({ code: 'model_not_configured' });
    const provider = await providerFromEnvironment({ env: { ...env, OPENAI_MODEL: 'my-model' } });
    expect([provider.id, provider.capabilities.modelId]).toEqual(['openai-compatible', 'my-model']);
  });

  it('takes the model from ANTHROPIC_MODEL or OPENAI_MODEL, and the default otherwise', async () => {
    const anthropic = await providerFromEnvironment({
      env: { ANTHROPIC_API_KEY: 'a', ANTHROPIC_MODEL: 'claude-opus-4-1' },
    });
    expect(anthropic.capabilities.modelId).toBe('claude-opus-4-1');
    const openai = await providerFromEnvironment({ env: { OPENAI_API_KEY: 'o', OPENAI_MODEL: 'gpt-4.1' } });
    expect(openai.capabilities.modelId).toBe('gpt-4.1');
    expect((await providerFromEnvironment({ env: { OPENAI_API_KEY: 'o' } })).capabilities.modelId).toBe('gpt-5-mini');
  });

  it('never shows the password of a base URL in the message', async () => {
    await expect(
      providerFromEnvironment({ env: { OPENAI_BASE_URL: 'http://me:hunter2@127.0.0.1:8000/v1' } }),
    ).rejects.toThrow(/^No model is set for the server at http:\/\/127\.0\.0\.1:8000\/v1: /);
  });
});

describe('optionalProviderFromEnvironment', () => {
  it('is undefined when no provider is configured', async () => {
    expect(await optionalProviderFromEnvironment({ env: {} })).toBeUndefined();
  });

  it('gives the configured provider', async () => {
    const provider = await optionalProviderFromEnvironment({ env: { OPENAI_API_KEY: 'o' } });
    expect(provider?.id).toBe('openai');
  });

  it('throws for a configuration that is there but does not fit, rather than falling back', async () => {
    await expect(
      optionalProviderFromEnvironment({ model: 'gpt-4o', env: { ANTHROPIC_API_KEY: 'a' } }),
    ).rejects.toMatchObject({ code: 'provider_not_configured', message: expect.stringContaining('OPENAI_API_KEY') });
    await expect(optionalProviderFromEnvironment({ model: 'openai:gpt-4o', env: {} })).rejects.toMatchObject({
      code: 'provider_not_configured',
    });
  });

  it('still throws other configuration errors', async () => {
    await expect(
      optionalProviderFromEnvironment({ env: { OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' } }),
    ).rejects.toMatchObject({
      code: 'model_not_configured',
    });
  });
});
