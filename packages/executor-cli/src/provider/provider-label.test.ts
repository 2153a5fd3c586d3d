import { describe, expect, it } from 'vitest';
import { providerLabel, requestLabel, shownProviderName } from './provider-label.js';

describe('providerLabel', () => {
  it('shows a vendor provider as name:model', () => {
    expect(providerLabel({ name: 'anthropic', type: 'anthropic', model: 'claude-sonnet-4-6' })).toBe(
      'anthropic:claude-sonnet-4-6',
    );
  });

  it('names a server given by its base URL openai-compatible, as errors do, and shows its URL', () => {
    const local = { name: 'openai', type: 'openai' as const, model: 'x', baseURL: 'http://127.0.0.1:11434/v1' };
    expect(shownProviderName(local)).toBe('openai-compatible');
    expect(providerLabel(local)).toBe('openai-compatible:x @ http://127.0.0.1:11434/v1');
  });

  it("keeps a table's own name and OpenAI's name for OpenAI's own URL", () => {
    expect(
      providerLabel({ name: 'ollama', type: 'openai', model: 'llama3.2', baseURL: 'http://localhost:11434/v1' }),
    ).toBe('ollama:llama3.2 @ http://localhost:11434/v1');
    expect(shownProviderName({ name: 'openai', type: 'openai', baseURL: 'https://api.openai.com/v1' })).toBe('openai');
  });

  it('never shows the user name or password of a base URL', () => {
    const label = providerLabel({ name: 'openai', type: 'openai', model: 'x', baseURL: 'http://me:hunter2@gw.lan/v1' });
    expect(label).toBe('openai-compatible:x @ http://gw.lan/v1');
  });
});

describe('requestLabel', () => {
  it("names the API of each kind, which the providers' ids leave out", () => {
    expect(requestLabel({ name: 'openai', type: 'openai', model: 'gpt-5' })).toBe('openai:gpt-5, Chat Completions API');
    expect(requestLabel({ name: 'openai-responses', type: 'openai-responses', model: 'gpt-5' })).toBe(
      'openai-responses:gpt-5, Responses API',
    );
    expect(requestLabel({ name: 'anthropic', type: 'anthropic', model: 'claude-sonnet-4-6' })).toBe(
      'anthropic:claude-sonnet-4-6, Messages API',
    );
  });

  it("calls a server given by its base URL openai-compatible, and keeps a table's name and API", () => {
    const local = { name: 'openai', type: 'openai' as const, model: 'llama3.2', baseURL: 'http://127.0.0.1:1/v1' };
    expect(requestLabel(local)).toBe('openai-compatible:llama3.2, Chat Completions API');
    expect(requestLabel({ name: 'corp', type: 'openai-responses', model: 'm', baseURL: 'http://127.0.0.1:1/v1' })).toBe(
      'corp:m, Responses API',
    );
  });
});

describe('a Google provider', () => {
  it('is named google with the Gemini API, never openai-compatible, whatever its base URL', () => {
    const gemini = {
      name: 'google',
      type: 'google' as const,
      model: 'gemini-2.5-flash',
      baseURL: 'http://127.0.0.1:1',
    };
    expect(shownProviderName(gemini)).toBe('google');
    expect(requestLabel(gemini)).toBe('google:gemini-2.5-flash, Gemini API');
  });
});
