import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import envPaths from 'env-paths';

/** The project configuration file, relative to a project directory. */
export const PROJECT_CONFIG_PATH = join('.agentloop', 'config.toml');

/** The user's configuration file: `config.toml` in the user config directory (`~/.config/agentloop` on Linux). */
export function userConfigPath(): string {
  return join(envPaths('agentloop', { suffix: '' }).config, 'config.toml');
}

/**
 * The nearest project configuration file: `.agentloop/config.toml` in `cwd` or the closest directory above
 * it that has one, as git finds `.git`. Undefined when there is none.
 */
export function findProjectConfig(cwd: string): string | undefined {
  for (let directory = resolve(cwd); ; directory = dirname(directory)) {
    const candidate = join(directory, PROJECT_CONFIG_PATH);
    if (existsSync(candidate)) return candidate;
    if (dirname(directory) === directory) return undefined;
  }
}
