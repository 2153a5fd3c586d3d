import { describe, expect, it } from 'vitest';
import { splitModelReference } from './model-reference.js';

describe('splitModelReference', () => {
  const isProvider = (name: string) => name === 'openai' || name === 'ollama';

  it('splits at the first colon when the prefix is a provider', () => {
    expect(splitModelReference('ollama:llama3.2:3b', isProvider)).toEqual({ provider: 'ollama', model: 'llama3.2:3b' });
  });

  it('keeps a model name with a colon whole', () => {
    expect(splitModelReference('llama3.2:3b', isProvider)).toEqual({ model: 'llama3.2:3b' });
  });

  it('reads "provider:" as a provider with its default model', () => {
    expect(splitModelReference('openai:', isProvider)).toEqual({ provider: 'openai' });
  });
});
