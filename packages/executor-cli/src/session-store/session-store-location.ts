import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import envPaths from 'env-paths';
import type { LoadedConfig } from '../config/index.js';
import type { SessionsConfig } from '../config/sessions-schema.js';
import { CliError } from '../errors/index.js';

/** Where the command's sessions are kept: which store, and its folder or database file. */
export interface SessionStoreLocation {
  kind: 'sqlite' | 'jsonl' | 'postgres';
  /**
   * The folder of the session files (`jsonl`), or the database file (`sqlite`); for `postgres`, which
   * variable names the database (`the PostgreSQL database of $DATABASE_URL`), never the connection string.
   */
  path: string;
  /** True for the default folder under the user data directory: agentloop's own, kept private. */
  defaultFolder: boolean;
  /** The PostgreSQL connection string (`postgres` only). */
  connectionString?: string;
}

/** The variable that holds the connection string of `store = "postgres"` when `url_env_var` names none. */
export const DEFAULT_URL_ENV_VAR = 'DATABASE_URL';

/**
 * The store the configuration's `[sessions]` table names, or undefined with `store = "off"`. By default
 * SQLite, in `sessions/sessions.sqlite` under the user's data directory (env-paths: XDG_DATA_HOME or
 * `~/.local/share/agentloop` on Linux, `~/Library/Application Support/agentloop` on macOS,
 * `%LOCALAPPDATA%\agentloop\Data` on Windows); the JSON lines store keeps its files in that folder.
 */
export function sessionStoreLocation(
  config: SessionsConfig | undefined,
  environment: Record<string, string | undefined> = process.env,
): SessionStoreLocation | undefined {
  const kind = config?.store ?? 'sqlite';
  if (kind === 'off') return undefined;
  if (kind === 'postgres') return postgresLocation(config?.url_env_var ?? DEFAULT_URL_ENV_VAR, environment);
  const directory = config?.directory
    ? resolve(config.directory.replace(/^~(?=$|[\\/])/, homedir()))
    : join(envPaths('agentloop', { suffix: '' }).data, 'sessions');
  return {
    kind,
    path: kind === 'sqlite' ? join(directory, 'sessions.sqlite') : directory,
    defaultFolder: !config?.directory,
  };
}

/** The PostgreSQL database the variable `variable` names; throws when it is unset. */
function postgresLocation(variable: string, environment: Record<string, string | undefined>): SessionStoreLocation {
  const connectionString = environment[variable]?.trim();
  if (!connectionString) {
    throw new CliError(
      `[sessions] store = "postgres" needs a connection string in the environment variable ${variable}, which is not set. ` +
        `Set it (${variable}=postgres://host:5432/database, with the user and password the server wants), name another variable with [sessions] url_env_var, or choose another store.`,
      { code: 'sessions_unavailable' },
    );
  }
  return { kind: 'postgres', path: `the PostgreSQL database of $${variable}`, defaultFolder: false, connectionString };
}

/**
 * The `[sessions]` settings of the merged configuration: the nearest file's `store`, and the user file's
 * `directory` and `url_env_var` (only it may set them: a project's file must not choose where a user's
 * conversations go), which a project's table does not drop.
 */
export function sessionsConfigOf(config: LoadedConfig): SessionsConfig {
  const userSetting = <Key extends 'directory' | 'url_env_var'>(key: Key) =>
    config.layers?.find((layer) => layer.settings.sessions?.[key])?.settings.sessions?.[key];
  const directory = userSetting('directory');
  const urlEnvVar = userSetting('url_env_var');
  const store = config.sessions?.store;
  return {
    ...(store ? { store } : {}),
    ...(directory ? { directory } : {}),
    ...(urlEnvVar ? { url_env_var: urlEnvVar } : {}),
  };
}
