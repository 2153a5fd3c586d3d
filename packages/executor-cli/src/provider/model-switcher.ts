import type { LLMProvider } from '@agentloop/core';
import type { LoadedConfig, ProviderSpec } from '../config/index.js';
import { isProviderType, resolveProviderSpec, splitModelReference } from '../config/index.js';
import type { ProviderFactory } from './create-provider.js';
import { createProvider as createProviderDefault } from './create-provider.js';
import { COMPATIBLE_PROVIDER_NAME, isCompatibleServer, providerLabel } from './provider-label.js';

/** Builds the provider a `/model` argument names; resolves with it and its label (see providerLabel). */
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
  /** Wraps each new provider (the CLI adds its verbose logging, and records it with `--record`). */
  wrap?: (provider: LLMProvider, spec: ProviderSpec) => LLMProvider | Promise<LLMProvider>;
  /** Told of each switch, with the new spec. */
  onSwitch?: (spec: ProviderSpec) => void;
}

/**
 * A switcher for `/model`: `provider:model` switches both (the provider's settings come from the
 * configuration and the environment), a bare model switches the model of the provider in use and keeps
 * its base URL and key. The provider in use answers to the name it was given, and an OpenAI-compatible
 * server also to `openai-compatible`, the name errors and the session header give it; `openai-compatible`
 * with no such server in use is refused, naming the servers the configuration has.
 */
export function createModelSwitcher(options: ModelSwitcherOptions = {}): ModelSwitcher {
  const config = options.config ?? { plugins: [], providers: {}, files: [] };
  const environment = options.environment ?? process.env;
  const build = options.createProvider ?? createProviderDefault;
  // A table may be called `openai-compatible` too; then the name is the table's.
  const compatibleAlias = !(COMPATIBLE_PROVIDER_NAME in config.providers);
  return async (reference) => {
    const current = options.current?.();
    const known = (name: string) =>
      isProviderType(name) || name in config.providers || (compatibleAlias && name === COMPATIBLE_PROVIDER_NAME);
    const wanted = splitModelReference(reference, known);
    let spec: ProviderSpec;
    if (current && (wanted.provider === undefined || namesOf(current, compatibleAlias).includes(wanted.provider))) {
      spec = { ...current, ...(wanted.model ? { model: wanted.model } : {}) };
    } else if (wanted.provider === undefined) {
      throw new Error(`Say which provider: /model anthropic:${reference} or /model openai:${reference}.`);
    } else if (compatibleAlias && wanted.provider === COMPATIBLE_PROVIDER_NAME) {
      throw new Error(noCompatibleServer(config, current, wanted.model));
    } else {
      spec = resolveProviderSpec(
        { provider: wanted.provider, model: wanted.model },
        config,
        environment,
        options.userConfigFile ?? 'your configuration file',
      );
    }
    const built = await build(spec);
    // Wrapped before the switch is announced: a wrapper that fails leaves the session as it was.
    const provider = options.wrap ? await options.wrap(built, spec) : built;
    options.onSwitch?.(spec);
    return { provider, label: providerLabel(spec) };
  };
}

function namesOf(spec: ProviderSpec, compatibleAlias: boolean): string[] {
  // `openai-compatible` stays the table's name when the configuration has a table called so.
  return compatibleAlias && isCompatibleServer(spec) ? [spec.name, COMPATIBLE_PROVIDER_NAME] : [spec.name];
}

// `openai-compatible` names no server by itself: it is the one in use, or one the configuration names.
function noCompatibleServer(
  config: LoadedConfig,
  current: ProviderSpec | undefined,
  model: string | undefined,
): string {
  const wanted = model ?? 'MODEL';
  const servers = Object.entries(config.providers)
    .filter(([name, entry]) =>
      isCompatibleServer({ type: entry.type ?? (isProviderType(name) ? name : 'openai'), baseURL: entry.base_url }),
    )
    .map(([name]) => `/model ${name}:${wanted}`);
  const inUse = current ? `, and this session uses ${providerLabel(current)}` : '';
  const configured =
    servers.length > 0
      ? `Your configuration names ${servers.length === 1 ? 'one' : 'some'}: ${servers.join(', ')}.`
      : `Add one to the configuration ([providers.local] with type = "openai", base_url = "http://localhost:11434/v1") and use /model local:${wanted}, or start agentloop with --base-url URL --model NAME.`;
  return `"${COMPATIBLE_PROVIDER_NAME}" is the OpenAI-compatible server in use${inUse}. ${configured}`;
}
