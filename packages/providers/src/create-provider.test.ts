import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from './anthropic/index.js';
import { createProvider } from './create-provider.js';
import { OpenAIProvider, OpenAIResponsesProvider } from './openai/index.js';
import { optionalProviderFromEnvironment, providerFromEnvironment } from './provider-from-environment.js';

const saved = { ...process.env };
beforeEach(() => {
  for (const name of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_MODEL'])
    delete process.env[name];
});
afterEach(() => {
  process.env = { ...saved };
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

  it('picks an OpenAI-compatible server from OPENAI_BASE_URL with OPENAI_MODEL', async () => {
    const provider = await providerFromEnvironment({
      env: { OPENAI_BASE_URL: 'http://localhost:11434/v1', OPENAI_MODEL: 'qwen3:8b' },
    });
    expect(provider.id).toBe('openai-compatible');
    expect(provider.capabilities.modelId).toBe('qwen3:8b');
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

  it('says what to set when nothing is configured', async () => {
    await expect(providerFromEnvironment({ env: {} })).rejects.toMatchObject({ code: 'provider_not_configured' });
    await expect(providerFromEnvironment({ env: { OPENAI_BASE_URL: 'http://localhost:8000/v1' } })).rejects.toThrow(
      /OPENAI_MODEL/,
    );
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

  it('still throws other configuration errors', async () => {
    await expect(
      optionalProviderFromEnvironment({ env: { OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' } }),
    ).rejects.toMatchObject({
      code: 'model_not_configured',
    });
  });
});
