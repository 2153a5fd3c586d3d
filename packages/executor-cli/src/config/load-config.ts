import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { ConfigError } from './config-error.js';
import { findProjectConfig, userConfigPath } from './config-paths.js';
import type { ConfigFile, ProviderEntry } from './config-schema.js';

/** The configuration of a session: the user's file and the project's merged, the project's winning. */
export interface LoadedConfig extends Omit<ConfigFile, 'plugins' | 'providers'> {
  /** Plugin specifiers, paths made absolute against the file that named them. */
  plugins: string[];
  /** Provider tables by name, merged key by key. */
  providers: Record<string, ProviderEntry>;
  /** The files that were read, user file first. */
  files: string[];
}

/** Where to look for configuration files. */
export interface ConfigLocations {
  /** The user's file (default: `config.toml` in the user config directory). */
  userFile?: string;
  /** The directory to search upwards from for `.agentloop/config.toml`. */
  cwd: string;
}

/**
 * Reads the user's and the project's configuration files (each optional) and merges them.
 * Rejects with a ConfigError naming the file, the key and the problem when a file cannot be read, is not
 * valid TOML, or does not match the schema.
 */
export async function loadConfig(locations: ConfigLocations): Promise<LoadedConfig> {
  const files = [locations.userFile ?? userConfigPath(), findProjectConfig(locations.cwd)].filter(
    (file): file is string => file !== undefined,
  );
  const merged: LoadedConfig = { plugins: [], providers: {}, files: [] };
  for (const file of files) {
    const config = await readConfigFile(file);
    if (!config) continue;
    merged.files.push(file);
    const { plugins = [], providers = {}, ...settings } = config;
    Object.assign(merged, settings);
    merged.plugins.push(...plugins.map((plugin) => resolvePluginSpecifier(plugin, dirname(file))));
    for (const [name, entry] of Object.entries(providers))
      merged.providers[name] = { ...merged.providers[name], ...entry };
  }
  return merged;
}

/** Reads and validates one file; undefined when it does not exist. */
export async function readConfigFile(file: string): Promise<ConfigFile | undefined> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError({ file, problem: `cannot be read (${(error as Error).message})`, cause: error });
  }
  // The TOML parser and zod load only when there is a file to read: most starts have none, and zod alone
  // takes about a fifth of the time to the prompt.
  const { parseConfig } = await import('./parse-config.js');
  return parseConfig(text, file);
}

// Plugins named by path are found relative to the file that names them, as tsconfig `extends` is; package
// names stay as they are.
function resolvePluginSpecifier(specifier: string, directory: string): string {
  if (specifier.startsWith('.') || isAbsolute(specifier)) return resolve(directory, specifier);
  return specifier;
}
