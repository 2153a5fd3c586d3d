import { describe, expect, it } from 'vitest';
import { defaultModel } from './default-model.js';
import { noProviderInEnvironment, readProviderEnvironment } from './read-provider-environment.js';

const read = (env: Record<string, string>, model?: string) =>
  readProviderEnvironment({ env, ...(model === undefined ? {} : { model }) });

describe('readProviderEnvironment', () => {
  it('is undefined when no variable picks a provider', () => {
    expect(read({})).toBeUndefined();
    expect(read({ OPENAI_MODEL: 'gpt-4.1', ANTHROPIC_MODEL: 'claude-opus-4-1' })).toBeUndefined();
    expect(read({ OPENAI_BASE_URL: 'https://api.openai.com/v1' })).toBeUndefined();
    expect(read({ ANTHROPIC_API_KEY: '  ', OPENAI_API_KEY: '' })).toBeUndefined();
  });

  it('reads Anthropic with its key, base URL and ANTHROPIC_MODEL', () => {
    expect(
      read({
        ANTHROPIC_API_KEY: 'sk-ant',
        ANTHROPIC_BASE_URL: 'https://proxy.example/anthropic',
        ANTHROPIC_MODEL: 'claude-opus-4-1',
        OPENAI_API_KEY: 'sk-oa',
      }),
    ).toEqual({
      kind: 'anthropic',
      model: 'claude-opus-4-1',
      modelSource: 'ANTHROPIC_MODEL',
      baseURL: 'https://proxy.example/anthropic',
      apiKey: 'sk-ant',
      credentialSource: 'ANTHROPIC_API_KEY',
    });
  });

  it('takes ANTHROPIC_AUTH_TOKEN alone as Anthropic, with the default model', () => {
    expect(read({ ANTHROPIC_AUTH_TOKEN: 'tok' })).toEqual({
      kind: 'anthropic',
      model: 'claude-sonnet-4-6',
      modelSource: 'default',
      authToken: 'tok',
      credentialSource: 'ANTHROPIC_AUTH_TOKEN',
    });
  });

  it('takes OPENAI_BASE_URL alone as an OpenAI-compatible server, with OPENAI_MODEL or no model at all', () => {
    expect(read({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_MODEL: 'qwen3:8b' })).toEqual({
      kind: 'openai-compatible',
      model: 'qwen3:8b',
      modelSource: 'OPENAI_MODEL',
      baseURL: 'http://127.0.0.1:11434/v1',
    });
    expect(read({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' })).toEqual({
      kind: 'openai-compatible',
      model: undefined,
      baseURL: 'http://127.0.0.1:11434/v1',
    });
  });

  it('gives no OpenAI default to a server that is not OpenAI, key or not', () => {
    expect(read({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'https://gw.example/v1' })).toMatchObject({
      kind: 'openai-compatible',
      model: undefined,
      apiKey: 'k',
    });
    expect(read({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'https://api.openai.com/v1' })).toMatchObject({
      kind: 'openai',
      model: 'gpt-5-mini',
      modelSource: 'default',
    });
  });

  it('reads OpenAI with OPENAI_MODEL, which a given model overrides', () => {
    expect(read({ OPENAI_API_KEY: 'k', OPENAI_MODEL: 'gpt-4.1' })).toEqual({
      kind: 'openai',
      model: 'gpt-4.1',
      modelSource: 'OPENAI_MODEL',
      apiKey: 'k',
      credentialSource: 'OPENAI_API_KEY',
    });
    expect(read({ OPENAI_API_KEY: 'k', OPENAI_MODEL: 'gpt-4.1' }, 'o3')).toMatchObject({
      model: 'o3',
      modelSource: 'model',
    });
  });

  it('lets a model variable name the model but never pick the provider', () => {
    expect(read({ ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o', OPENAI_MODEL: 'gpt-4.1' })).toMatchObject({
      kind: 'anthropic',
      model: 'claude-sonnet-4-6',
    });
  });

  it("sends a vendor's model to that vendor, and names its key when it has none", () => {
    expect(read({ ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' }, 'gpt-4o')).toMatchObject({ kind: 'openai' });
    expect(read({ ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' }, 'claude-opus-4-1')).toMatchObject({
      kind: 'anthropic',
    });
    expect(() => read({ ANTHROPIC_API_KEY: 'a' }, 'gpt-4o')).toThrow(
      expect.objectContaining({ code: 'provider_not_configured', message: expect.stringMatching(/OPENAI_API_KEY/) }),
    );
    expect(read({ ANTHROPIC_API_KEY: 'a', OPENAI_BASE_URL: 'http://localhost:11434/v1' }, 'gpt-oss:20b')).toMatchObject(
      { kind: 'openai-compatible', model: 'gpt-oss:20b' },
    );
  });

  it('reads only the variables of a kind the caller chose, or the spec in the model', () => {
    const env = { ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o', OPENAI_MODEL: 'gpt-4.1' };
    expect(readProviderEnvironment({ env, kind: 'openai-responses' })).toEqual({
      kind: 'openai-responses',
      model: 'gpt-4.1',
      modelSource: 'OPENAI_MODEL',
      apiKey: 'o',
      credentialSource: 'OPENAI_API_KEY',
    });
    expect(read(env, 'openai:llama3.2:3b')).toMatchObject({ kind: 'openai', model: 'llama3.2:3b' });
    expect(read({}, 'anthropic:claude-haiku-4-5')).toEqual({
      kind: 'anthropic',
      model: 'claude-haiku-4-5',
      modelSource: 'model',
    });
  });
});

describe('readProviderEnvironment and Google', () => {
  it('reads Google from GEMINI_API_KEY with its base URL and GEMINI_MODEL, GEMINI_API_KEY before GOOGLE_API_KEY', () => {
    expect(
      read({
        GEMINI_API_KEY: 'gm',
        GOOGLE_API_KEY: 'gg',
        GOOGLE_GEMINI_BASE_URL: 'https://proxy.example/gemini',
        GEMINI_MODEL: 'gemini-2.5-pro',
      }),
    ).toEqual({
      kind: 'google',
      model: 'gemini-2.5-pro',
      modelSource: 'GEMINI_MODEL',
      baseURL: 'https://proxy.example/gemini',
      apiKey: 'gm',
      credentialSource: 'GEMINI_API_KEY',
    });
  });

  it('takes GOOGLE_API_KEY alone, with the default Gemini model', () => {
    expect(read({ GOOGLE_API_KEY: 'gg', GEMINI_API_KEY: ' ' })).toEqual({
      kind: 'google',
      model: 'gemini-2.5-flash',
      modelSource: 'default',
      apiKey: 'gg',
      credentialSource: 'GOOGLE_API_KEY',
    });
  });

  it("ranks Google's keys after Anthropic's and OpenAI's, unless the model is Google's", () => {
    expect(read({ GEMINI_API_KEY: 'gm', ANTHROPIC_API_KEY: 'a' })?.kind).toBe('anthropic');
    expect(read({ GEMINI_API_KEY: 'gm', OPENAI_API_KEY: 'o' })?.kind).toBe('openai');
    const all = { GEMINI_API_KEY: 'gm', ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' };
    expect(read(all, 'gemini-3-pro-preview')).toMatchObject({ kind: 'google', model: 'gemini-3-pro-preview' });
    expect(read(all, 'gemma-3-27b-it')?.kind).toBe('google');
    expect(read({ GEMINI_API_KEY: 'gm' }, 'google:gemini-2.0-flash')).toMatchObject({ model: 'gemini-2.0-flash' });
  });

  it("names the missing key when the model's vendor has none", () => {
    expect(() => read({ ANTHROPIC_API_KEY: 'a' }, 'gemini-2.5-flash')).toThrow(
      '"gemini-2.5-flash" is a Google model: set GEMINI_API_KEY (or GOOGLE_API_KEY).',
    );
    expect(() => read({ GEMINI_API_KEY: 'gm' }, 'claude-opus-4-1')).toThrow(
      /is an Anthropic model: set ANTHROPIC_API_KEY/,
    );
    expect(noProviderInEnvironment('gemini-2.5-pro')).toMatch(/is a Google model: set GEMINI_API_KEY/);
  });
});

describe('defaultModel', () => {
  it("has the vendor's default for Anthropic and OpenAI's own API, none for another server", () => {
    expect(defaultModel('anthropic', 'http://127.0.0.1:1')).toBe('claude-sonnet-4-6');
    expect(defaultModel('openai')).toBe('gpt-5-mini');
    expect(defaultModel('openai-responses', 'https://api.openai.com/v1')).toBe('gpt-5-mini');
    expect(defaultModel('openai', 'http://127.0.0.1:11434/v1')).toBeUndefined();
    expect(defaultModel('openai-compatible')).toBeUndefined();
    expect(defaultModel('google', 'http://127.0.0.1:1')).toBe('gemini-2.5-flash');
  });
});

describe('noProviderInEnvironment', () => {
  it("names every way to configure one, or the key of the model's vendor", () => {
    expect(noProviderInEnvironment()).toMatch(
      /ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, or OPENAI_BASE_URL and OPENAI_MODEL/,
    );
    expect(noProviderInEnvironment('claude-opus-4-1')).toBe(
      '"claude-opus-4-1" is an Anthropic model: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN).',
    );
  });
});
