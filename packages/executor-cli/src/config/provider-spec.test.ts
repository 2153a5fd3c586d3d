import { describe, expect, it } from 'vitest';
import type { LoadedConfig } from './load-config.js';
import { NoProviderError } from './no-provider-error.js';
import { resolveProviderSpec } from './provider-spec.js';

const noConfig: LoadedConfig = { plugins: [], providers: {}, files: [] };
const config = (overrides: Partial<LoadedConfig>): LoadedConfig => ({ ...noConfig, ...overrides });

describe('resolveProviderSpec', () => {
  it('fails with what to set when nothing names a provider', () => {
    const resolve = () => resolveProviderSpec({}, noConfig, {}, '/home/u/.config/agentloop/config.toml');
    expect(resolve).toThrow(NoProviderError);
    expect(resolve).toThrow(/ANTHROPIC_API_KEY=.*\n.*OPENAI_API_KEY=.*\n.*--base-url/s);
    expect(resolve).toThrow(/agentloop config init` \(\/home\/u\/\.config\/agentloop\/config\.toml\)/);
  });

  it('prefers Anthropic when both keys are in the environment', () => {
    const spec = resolveProviderSpec({}, noConfig, { ANTHROPIC_API_KEY: 'sk-ant', OPENAI_API_KEY: 'sk-oa' }, 'u');
    expect(spec).toEqual({
      name: 'anthropic',
      type: 'anthropic',
      model: 'claude-sonnet-4-6',
      apiKey: 'sk-ant',
      apiKeySource: 'ANTHROPIC_API_KEY',
    });
  });

  it('uses OpenAI when only its key is set', () => {
    expect(resolveProviderSpec({}, noConfig, { OPENAI_API_KEY: 'sk-oa' }, 'u')).toMatchObject({
      name: 'openai',
      model: 'gpt-5-mini',
    });
  });

  it('treats a base URL alone as an OpenAI-compatible server that needs no key', () => {
    const spec = resolveProviderSpec({ baseURL: 'http://127.0.0.1:8080/v1', model: 'llama3.2:3b' }, noConfig, {}, 'u');
    expect(spec).toEqual({ name: 'openai', type: 'openai', model: 'llama3.2:3b', baseURL: 'http://127.0.0.1:8080/v1' });
  });

  it('asks for a model when a base URL is given without one', () => {
    expect(() => resolveProviderSpec({ baseURL: 'http://127.0.0.1:8080/v1' }, noConfig, {}, 'u')).toThrow(
      /No model is set for the server at http:\/\/127\.0\.0\.1:8080\/v1/,
    );
  });

  it("keeps Anthropic's default model behind ANTHROPIC_BASE_URL, and guesses none for another OpenAI server", () => {
    expect(
      resolveProviderSpec(
        {},
        noConfig,
        { ANTHROPIC_API_KEY: 'sk-ant', ANTHROPIC_BASE_URL: 'https://proxy.example/anthropic' },
        'u',
      ),
    ).toMatchObject({ model: 'claude-sonnet-4-6', baseURL: 'https://proxy.example/anthropic' });
    expect(() =>
      resolveProviderSpec({}, noConfig, { OPENAI_API_KEY: 'sk-oa', OPENAI_BASE_URL: 'https://gw.example/v1' }, 'u'),
    ).toThrow(/^No model is set for the server at https:\/\/gw\.example\/v1: .*OPENAI_MODEL/);
    expect(
      resolveProviderSpec({}, noConfig, { OPENAI_API_KEY: 'sk-oa', OPENAI_BASE_URL: 'https://api.openai.com/v1' }, 'u'),
    ).toMatchObject({ model: 'gpt-5-mini', baseURL: 'https://api.openai.com/v1' });
  });

  it('keeps the default model for an Anthropic base URL in the configuration, not for an OpenAI-compatible one', () => {
    const proxied = config({ providers: { anthropic: { base_url: 'https://proxy.example', api_key: 'sk-ant-x' } } });
    expect(resolveProviderSpec({ provider: 'anthropic' }, proxied, {}, 'u').model).toBe('claude-sonnet-4-6');
    const local = config({ providers: { local: { type: 'openai', base_url: 'http://127.0.0.1:1/v1' } } });
    expect(() => resolveProviderSpec({ provider: 'local' }, local, {}, 'u')).toThrow(/No model is set/);
  });

  it('takes OPENAI_BASE_URL alone as an OpenAI-compatible server, with OPENAI_MODEL, as the library does', () => {
    const environment = { OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1', OPENAI_MODEL: 'qwen3:8b' };
    expect(resolveProviderSpec({}, noConfig, environment, 'u')).toEqual({
      name: 'openai',
      type: 'openai',
      model: 'qwen3:8b',
      baseURL: 'http://127.0.0.1:8080/v1',
    });
    expect(() => resolveProviderSpec({}, noConfig, { OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1' }, 'u')).toThrow(
      'No model is set for the server at http://127.0.0.1:8080/v1: name one with --model (e.g. --model llama3.2), model = "..." in the configuration, or OPENAI_MODEL (the server lists its models at http://127.0.0.1:8080/v1/models).',
    );
  });

  it('takes the model from OPENAI_MODEL or ANTHROPIC_MODEL when flags and configuration name none', () => {
    const environment = { OPENAI_API_KEY: 'k', OPENAI_MODEL: 'my-model', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' };
    expect(resolveProviderSpec({}, noConfig, environment, 'u')).toMatchObject({ name: 'openai', model: 'my-model' });
    expect(resolveProviderSpec({ model: 'flag-model' }, noConfig, environment, 'u').model).toBe('flag-model');
    expect(
      resolveProviderSpec({}, noConfig, { ANTHROPIC_API_KEY: 'a', ANTHROPIC_MODEL: 'claude-opus-4-1' }, 'u').model,
    ).toBe('claude-opus-4-1');
  });

  it('takes ANTHROPIC_AUTH_TOKEN alone as Anthropic, sent as a bearer token', () => {
    expect(resolveProviderSpec({}, noConfig, { ANTHROPIC_AUTH_TOKEN: 'tok' }, 'u')).toEqual({
      name: 'anthropic',
      type: 'anthropic',
      model: 'claude-sonnet-4-6',
      apiKeySource: 'ANTHROPIC_AUTH_TOKEN',
      headers: { authorization: 'Bearer tok' },
    });
  });

  it("sends a vendor's model to the vendor whose key is set, and names the key it lacks", () => {
    const both = { ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' };
    expect(resolveProviderSpec({ model: 'gpt-4o' }, noConfig, both, 'u')).toMatchObject({
      name: 'openai',
      model: 'gpt-4o',
    });
    expect(() => resolveProviderSpec({ model: 'gpt-4o' }, noConfig, { ANTHROPIC_API_KEY: 'a' }, 'u')).toThrow(
      expect.objectContaining({
        code: 'no_provider',
        message: expect.stringMatching(/is an OpenAI model: set OPENAI_API_KEY/),
      }),
    );
  });

  it('names the missing key of a chosen provider', () => {
    expect(() => resolveProviderSpec({ provider: 'anthropic' }, noConfig, {}, 'u')).toThrow(
      'The anthropic provider needs an API key: set ANTHROPIC_API_KEY, or api_key in [providers.anthropic] of the configuration.',
    );
  });

  it('reads a provider:model reference', () => {
    expect(
      resolveProviderSpec({ model: 'openai:gpt-4.1' }, noConfig, { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'a' }, 'u'),
    ).toMatchObject({ name: 'openai', model: 'gpt-4.1' });
  });

  it('uses a configured provider table with its own key variable, base URL and model', () => {
    const configured = config({
      provider: 'router',
      providers: {
        router: { type: 'openai', api_key_env: 'ROUTER_KEY', base_url: 'https://router.example/v1', model: 'm1' },
      },
    });
    expect(resolveProviderSpec({}, configured, { ROUTER_KEY: 'rk' }, 'u')).toEqual({
      name: 'router',
      type: 'openai',
      model: 'm1',
      apiKey: 'rk',
      apiKeySource: 'ROUTER_KEY',
      baseURL: 'https://router.example/v1',
    });
  });

  it('lets flags win over the configuration', () => {
    const configured = config({
      provider: 'anthropic',
      model: 'claude-opus-4-1',
      providers: { anthropic: { api_key: 'cfg' } },
    });
    expect(resolveProviderSpec({ model: 'claude-haiku-4-5' }, configured, {}, 'u')).toMatchObject({
      model: 'claude-haiku-4-5',
      apiKey: 'cfg',
      apiKeySource: 'the configuration file',
    });
  });

  it('does not apply the configured model to another provider chosen by flag', () => {
    const configured = config({ provider: 'anthropic', model: 'claude-opus-4-1' });
    expect(resolveProviderSpec({ provider: 'openai' }, configured, { OPENAI_API_KEY: 'k' }, 'u').model).toBe(
      'gpt-5-mini',
    );
  });

  it('refuses a base URL with a user name or password, showing it rebuilt without them and saying where credentials go', () => {
    const error = errorOf(() =>
      resolveProviderSpec({ baseURL: 'http://user:password@host/v1', model: 'm' }, noConfig, {}, 'u'),
    );
    expect(error.code).toBe('invalid_base_url');
    expect(error.message).toMatch(
      /^The base URL http:\/\/host\/v1 was given with a user name or password in it \(not shown\)/,
    );
    expect(error.message).toContain(
      'give the credential as a header in [providers.openai] of the user configuration instead (`agentloop config path` shows where it is), e.g. headers = { Authorization = "Basic <base64 of user:password>" }, or an API key as api_key = "..." there or in the OPENAI_API_KEY environment variable',
    );
    expect(error.message).not.toContain('password@');
  });

  // Each leaked past the redaction pattern: the whole password was printed.
  it.each([
    [
      'a space in the password',
      'http://admin:hunter2 secret@localhost:9/v1',
      'The base URL http://localhost:9/v1 was given',
    ],
    [
      'a quote in the password',
      'http://admin:hunter2"secret@localhost:9/v1',
      'The base URL http://localhost:9/v1 was given',
    ],
    [
      'no slashes after the scheme',
      'http:admin:hunter2secret@localhost:9/v1',
      'The base URL http://localhost:9/v1 was given',
    ],
    [
      'a backslash in the password',
      'http://admin:hunter2\\secret@localhost:9/v1',
      'The base URL is not a valid URL (not shown',
    ],
    [
      'a slash in the password',
      'http://admin:hunter2/secret@localhost:9/v1',
      'The base URL is not a valid URL (not shown',
    ],
    ['no scheme', '//admin:hunter2secret@localhost:9/v1', 'The base URL is not a valid URL (not shown'],
  ])('never shows the password of a base URL with %s', (_case, baseURL, start) => {
    const error = errorOf(() => resolveProviderSpec({ baseURL, model: 'm' }, noConfig, {}, 'u'));
    expect(error.code).toBe('invalid_base_url');
    expect(error.message.startsWith(start)).toBe(true);
    expect(error.message).not.toMatch(/hunter2|secret/);
    expect(error.message).toContain('headers = { Authorization = "Basic <base64 of user:password>" }');
  });

  it('shows a base URL that cannot be parsed when it has no @, and refuses one that is not http(s)', () => {
    expect(
      errorOf(() => resolveProviderSpec({ baseURL: 'http//localhost', model: 'm' }, noConfig, {}, 'u')).message,
    ).toMatch(
      /^The base URL "http\/\/localhost" is not a valid URL\. Give it whole, e\.g\. http:\/\/localhost:11434\/v1;/,
    );
    expect(
      errorOf(() => resolveProviderSpec({ baseURL: 'localhost:11434/v1', model: 'm' }, noConfig, {}, 'u')),
    ).toMatchObject({
      code: 'invalid_base_url',
      message:
        'The base URL localhost:11434/v1 is not an http:// or https:// URL. Give it whole, e.g. http://localhost:11434/v1.',
    });
  });

  it('refuses credentials in a base URL from the environment too, naming the table and the key variable', () => {
    const error = errorOf(() =>
      resolveProviderSpec({}, noConfig, { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'https://me:hunter22@gw/v1' }, 'u'),
    );
    expect(error.code).toBe('invalid_base_url');
    expect(error.message).toMatch(/^The base URL https:\/\/gw\/v1 was given/);
    expect(error.message).toContain('[providers.openai]');
    expect(error.message).not.toContain('hunter22');
  });

  it('passes the headers of a provider table on, and takes a credential header for the key', () => {
    const configured = config({
      providers: {
        anthropic: { base_url: 'https://proxy.example', headers: { Authorization: 'Basic dXNlcjpwYXNz' } },
      },
    });
    expect(resolveProviderSpec({ provider: 'anthropic' }, configured, {}, 'u')).toEqual({
      name: 'anthropic',
      type: 'anthropic',
      model: 'claude-sonnet-4-6',
      baseURL: 'https://proxy.example',
      headers: { Authorization: 'Basic dXNlcjpwYXNz' },
    });
  });

  it('uses Google when only GEMINI_API_KEY is set, with its default model', () => {
    expect(resolveProviderSpec({}, noConfig, { GEMINI_API_KEY: 'gm' }, 'u')).toEqual({
      name: 'google',
      type: 'google',
      model: 'gemini-2.5-flash',
      apiKey: 'gm',
      apiKeySource: 'GEMINI_API_KEY',
    });
  });

  it('ranks Google after Anthropic and OpenAI, takes GEMINI_MODEL, and names GOOGLE_API_KEY when the key came from it', () => {
    expect(resolveProviderSpec({}, noConfig, { GEMINI_API_KEY: 'gm', OPENAI_API_KEY: 'o' }, 'u').name).toBe('openai');
    expect(
      resolveProviderSpec(
        { provider: 'google' },
        noConfig,
        { GOOGLE_API_KEY: 'gg', GEMINI_MODEL: 'gemini-2.5-pro' },
        'u',
      ),
    ).toEqual({
      name: 'google',
      type: 'google',
      model: 'gemini-2.5-pro',
      apiKey: 'gg',
      apiKeySource: 'GOOGLE_API_KEY',
    });
    expect(
      resolveProviderSpec(
        { model: 'gemini-3-pro-preview' },
        noConfig,
        { ANTHROPIC_API_KEY: 'a', GEMINI_API_KEY: 'gm' },
        'u',
      ),
    ).toMatchObject({ name: 'google', model: 'gemini-3-pro-preview' });
  });

  it("names both of Google's key variables when --provider google has no key, also with a base URL", () => {
    for (const request of [{ provider: 'google' }, { provider: 'google', baseURL: 'http://127.0.0.1:1' }])
      expect(() => resolveProviderSpec(request, noConfig, {}, 'u')).toThrow(
        'The google provider needs an API key: set GEMINI_API_KEY (or GOOGLE_API_KEY), or api_key in [providers.google] of the configuration.',
      );
  });

  it('names an unknown provider', () => {
    expect(() => resolveProviderSpec({ provider: 'mistral' }, noConfig, {}, 'u')).toThrow(
      /Unknown provider "mistral". Use anthropic, openai, openai-responses or google,/,
    );
  });
});

function errorOf(action: () => unknown): Error & { code?: string } {
  try {
    action();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected an error');
}
