import type { ConfigFile } from './config-schema.js';
import type { LoadedConfig } from './load-config.js';

/** A `model` setting read as `provider:model` where the prefix names a provider, else as a model alone. */
export type ModelReferenceReader = (reference: string | undefined) => { provider?: string; model?: string };

/** What one file says about the model. */
export type ModelSettings = Pick<ConfigFile, 'provider' | 'model' | 'providers'>;

/**
 * The model the configuration files choose for the provider `name`, or undefined when none does (the
 * caller falls back to the vendor's default). The project file is asked before the user file, and in each
 * file its top-level `model` comes before `[providers.<name>].model`, when it is for that provider: written
 * `name:model`, or written alone in a file whose `provider` is `name` or is not set. So the model a user
 * wrote at the top of the project file is never lost to a provider table of the user file, nor to a table
 * of its own file, which only says what to use with that provider when nothing else does.
 *
 * A configuration without `layers` (an app's own, a test's) counts as one file.
 */
export function configuredModel(
  config: LoadedConfig,
  name: string,
  readReference: ModelReferenceReader,
): string | undefined {
  const files: readonly ModelSettings[] = config.layers
    ? config.layers.map((layer) => layer.settings).reverse()
    : [config];
  for (const settings of files) {
    const top = readReference(settings.model);
    const modelProvider = top.provider ?? settings.provider;
    if (top.model !== undefined && (modelProvider === undefined || modelProvider === name)) return top.model;
    const tableModel = settings.providers?.[name]?.model;
    if (tableModel !== undefined) return tableModel;
  }
  return undefined;
}
