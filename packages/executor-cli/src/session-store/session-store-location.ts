import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import envPaths from 'env-paths';
import type { LoadedConfig } from '../config/index.js';
import type { SessionsConfig } from '../config/sessions-schema.js';

/** Where the command's sessions are kept: which store, and its folder or database file. */
export interface SessionStoreLocation {
  kind: 'sqlite' | 'jsonl';
  /** The folder of the session files (`jsonl`), or the database file (`sqlite`). */
  path: string;
  /** True for the default folder under the user data directory: agentloop's own, kept private. */
  defaultFolder: boolean;
}

/**
 * The store the configuration's `[sessions]` table names, or undefined with `store = "off"`. By default
 * SQLite, in `sessions/sessions.sqlite` under the user's data directory (env-paths: XDG_DATA_HOME or
 * `~/.local/share/agentloop` on Linux, `~/Library/Application Support/agentloop` on macOS,
 * `%LOCALAPPDATA%\agentloop\Data` on Windows); the JSON lines store keeps its files in that folder.
 */
export function sessionStoreLocation(config: SessionsConfig | undefined): SessionStoreLocation | undefined {
  const kind = config?.store ?? 'sqlite';
  if (kind === 'off') return undefined;
  const directory = config?.directory
    ? resolve(config.directory.replace(/^~(?=$|[\\/])/, homedir()))
    : join(envPaths('agentloop', { suffix: '' }).data, 'sessions');
  return {
    kind,
    path: kind === 'sqlite' ? join(directory, 'sessions.sqlite') : directory,
    defaultFolder: !config?.directory,
  };
}

/**
 * The `[sessions]` settings of the merged configuration: the nearest file's `store`, and the user file's
 * `directory` (only it may set one), which a project's table does not drop.
 */
export function sessionsConfigOf(config: LoadedConfig): SessionsConfig {
  const directory = config.layers?.find((layer) => layer.settings.sessions?.directory)?.settings.sessions?.directory;
  const store = config.sessions?.store;
  return { ...(store ? { store } : {}), ...(directory ? { directory } : {}) };
}
