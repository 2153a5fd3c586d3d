import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import envPaths from 'env-paths';

/** The project configuration file, relative to a project directory. */
export const PROJECT_CONFIG_PATH = join('.agentloop', 'config.toml');

/** The user's configuration file: `config.toml` in the user config directory (`~/.config/agentloop` on Linux). */
export function userConfigPath(): string {
  return join(envPaths('agentloop', { suffix: '' }).config, 'config.toml');
}

/** What the upward search for a project file depends on; tests pass their own. */
export interface ProjectSearchOptions {
  /** Where the search stops at the latest (default: the user's home directory). */
  home?: string;
  /** The current user's id (default: `process.getuid()`; undefined on Windows, where ownership is not checked). */
  uid?: number;
  /** Told about a file skipped because someone else owns it (default: one line on stderr per file). */
  onSkip?: (file: string) => void;
}

const warnedAbout = new Set<string>();

// The search runs more than once per start (settings, `config path`); the warning is shown once.
function warnOnce(file: string): void {
  if (warnedAbout.has(file)) return;
  warnedAbout.add(file);
  process.stderr.write(`agentloop: ignoring ${file}: it is owned by another user.\n`);
}

/**
 * The nearest project configuration file: `.agentloop/config.toml` in `cwd` or the closest directory above
 * it that has one, as git finds `.git`. The search stops at the user's home directory or the filesystem
 * root, whichever comes first, so a file in a shared directory above the home (`/tmp`, `/home`) is never
 * read; a file owned by another user is skipped with a warning. Undefined when there is none.
 */
export function findProjectConfig(cwd: string, options: ProjectSearchOptions = {}): string | undefined {
  const home = resolve(options.home ?? homedir());
  const uid = 'uid' in options ? options.uid : process.getuid?.();
  const onSkip = options.onSkip ?? warnOnce;
  for (let directory = resolve(cwd); ; directory = dirname(directory)) {
    const candidate = join(directory, PROJECT_CONFIG_PATH);
    if (existsSync(candidate)) {
      if (uid === undefined || statSync(candidate).uid === uid) return candidate;
      onSkip(candidate);
    }
    // A search that starts inside the home directory reaches it exactly, and stops there.
    if (directory === home || dirname(directory) === directory) return undefined;
  }
}
