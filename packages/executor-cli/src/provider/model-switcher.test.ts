import type { LLMProvider } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { describe, expect, it } from 'vitest';
import type { LoadedConfig, ProviderSpec } from '../config/index.js';
import { createModelSwitcher } from './model-switcher.js';

const localServer: ProviderSpec = { name: 'openai', type: 'openai', model: 'x', baseURL: 'http://127.0.0.1:11434/v1' };
const anthropic: ProviderSpec = { name: 'anthropic', type: 'anthropic', model: 'claude-sonnet-4-6', apiKey: 'k' };
const noConfig: LoadedConfig = { plugins: [], providers: {}, files: [] };

function switcher(current: ProviderSpec, config: LoadedConfig = noConfig) {
  const built: ProviderSpec[] = [];
  const switchModel = createModelSwitcher({
    config,
    environment: {},
    current: () => current,
    createProvider: async (spec): Promise<LLMProvider> => {
      built.push(spec);
      return new ScriptedProvider([]);
    },
  });
  return { switchModel, built };
}

describe('createModelSwitcher', () => {
  it('waits for a wrapper that takes time, and announces the switch only once it is wrapped', async () => {
    const switches: ProviderSpec[] = [];
    const wrapped = new ScriptedProvider([], { id: 'wrapped' });
    const options = {
      environment: {},
      current: () => localServer,
      createProvider: async (): Promise<LLMProvider> => new ScriptedProvider([]),
      onSwitch: (spec: ProviderSpec) => void switches.push(spec),
    };
    const switchModel = createModelSwitcher({ ...options, wrap: async () => wrapped });
    expect((await switchModel('y')).provider).toBe(wrapped);
    expect(switches).toHaveLength(1);
    const failing = createModelSwitcher({
      ...options,
      wrap: async () => {
        throw new Error('the cassette cannot be written');
      },
    });
    await expect(failing('z')).rejects.toThrow('the cassette cannot be written');
    expect(switches).toHaveLength(1);
  });

  it('takes openai-compatible, the name errors give a local server, for the server in use', async () => {
    const { switchModel, built } = switcher(localServer);
    expect((await switchModel('openai-compatible:y')).label).toBe('openai-compatible:y @ http://127.0.0.1:11434/v1');
    expect(built).toEqual([{ ...localServer, model: 'y' }]);
  });

  it('keeps the server in use for the name it was started with, and for a bare model', async () => {
    const { switchModel, built } = switcher(localServer);
    await switchModel('openai:y');
    await switchModel('llama3.2:3b');
    expect(built.map((spec) => [spec.baseURL, spec.model])).toEqual([
      ['http://127.0.0.1:11434/v1', 'y'],
      ['http://127.0.0.1:11434/v1', 'llama3.2:3b'],
    ]);
  });

  it('refuses openai-compatible when no such server is in use, naming the configured ones', async () => {
    const config: LoadedConfig = {
      ...noConfig,
      providers: { ollama: { type: 'openai', base_url: 'http://localhost:11434/v1' }, openai: { api_key: 'k' } },
    };
    const { switchModel, built } = switcher(anthropic, config);
    await expect(switchModel('openai-compatible:y')).rejects.toThrow(
      '"openai-compatible" is the OpenAI-compatible server in use, and this session uses anthropic:claude-sonnet-4-6. Your configuration names one: /model ollama:y.',
    );
    await expect(switcher(anthropic).switchModel('openai-compatible:y')).rejects.toThrow(
      /Add one to the configuration \(\[providers\.local\] with type = "openai", base_url = "http:\/\/localhost:11434\/v1"\) and use \/model local:y, or start agentloop with --base-url URL --model NAME\.$/,
    );
    expect(built).toEqual([]);
  });

  it('switches to a configured server by its table, showing its URL', async () => {
    const config: LoadedConfig = {
      ...noConfig,
      providers: { ollama: { type: 'openai', base_url: 'http://localhost:11434/v1', model: 'llama3.2' } },
    };
    const { switchModel } = switcher(anthropic, config);
    expect((await switchModel('ollama:')).label).toBe('ollama:llama3.2 @ http://localhost:11434/v1');
  });

  it('lets a table called openai-compatible be a table', async () => {
    const config: LoadedConfig = {
      ...noConfig,
      providers: { 'openai-compatible': { type: 'openai', base_url: 'http://10.0.0.2:8000/v1' } },
    };
    const { switchModel, built } = switcher(localServer, config);
    await switchModel('openai-compatible:qwen3');
    expect(built).toEqual([
      { name: 'openai-compatible', type: 'openai', model: 'qwen3', baseURL: 'http://10.0.0.2:8000/v1' },
    ]);
  });
});
