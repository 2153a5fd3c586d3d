import type { LLMProvider } from '@agentloop/core';
import type { LoadedConfig, ProviderSpec } from '../config/index.js';
import { formatProviderSpec, isProviderType, resolveProviderSpec, splitModelReference } from '../config/index.js';
import type { ProviderFactory } from './create-provider.js';
import { createProvider as createProviderDefault } from './create-provider.js';

/** Builds the provider a `/model` argument names; resolves with it and its `provider:model` label. */
export type ModelSwitcher = (reference: string) => Promise<{ provider: LLMProvider; label: string }>;

/** What a model switcher resolves references against. */
export interface ModelSwitcherOptions {
  /** The configuration (provider tables, keys); empty for an app without one. */
  config?: LoadedConfig;
  environment?: Record<string, string | undefined>;
  userConfigFile?: string;
  /** The provider in use, so `/model name` keeps its provider, base URL and key. */
  current?: () => ProviderSpec | undefined;
  createProvider?: ProviderFactory;
  /** Wraps each new provider (the CLI adds its verbose logging). */
  wrap?: (provider: LLMProvider) => LLMProvider;
  /** Told of each switch, with the new spec. */
  onSwitch?: (spec: ProviderSpec) => void;
}

/**
 * A switcher for `/model`: `provider:model` switches both (the provider's settings come from the
 * configuration and the environment), a bare model switches the model of the provider in use and keeps
 * its base URL and key.
 */
export function createModelSwitcher(options: ModelSwitcherOptions = {}): ModelSwitcher {
  const config = options.config ?? { plugins: [], providers: {}, files: [] };
  const environment = options.environment ?? process.env;
  const build = options.createProvider ?? createProviderDefault;
  return async (reference) => {
    const current = options.current?.();
    const known = (name: string) => isProviderType(name) || name in config.providers;
    const wanted = splitModelReference(reference, known);
    let spec: ProviderSpec;
    if (current && (wanted.provider === undefined || wanted.provider === current.name)) {
      spec = { ...current, ...(wanted.model ? { model: wanted.model } : {}) };
    } else {
      if (wanted.provider === undefined)
        throw new Error(`Say which provider: /model anthropic:${reference} or /model openai:${reference}.`);
      spec = resolveProviderSpec(
        { provider: wanted.provider, model: wanted.model },
        config,
        environment,
        options.userConfigFile ?? 'your configuration file',
      );
    }
    const provider = await build(spec);
    options.onSwitch?.(spec);
    return { provider: options.wrap ? options.wrap(provider) : provider, label: formatProviderSpec(spec) };
  };
}
