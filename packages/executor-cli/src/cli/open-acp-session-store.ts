import { resolve } from 'node:path';
import type { SessionStore } from '@agentloop/core';
import { loadConfig, userConfigPath } from '../config/index.js';
import { openSessionStore, sessionStoreLocation, sessionsConfigOf } from '../session-store/index.js';

/** Where `agentloop acp` looks for the `[sessions]` settings; injectable for tests. */
export interface AcpSessionStoreSources {
  /** The directory the command runs in (`--cwd` resolved): its project file may say `store = "off"`. */
  cwd: string;
  /** The user's configuration file (default: `config.toml` in the user config directory). */
  userConfigFile?: string;
  /** Says why sessions are not saved, when a store cannot be opened. */
  log: (message: string) => void;
}

/**
 * The store `agentloop acp` keeps its sessions in, for every editor session and for `session/load`: the
 * one the `[sessions]` table of the configuration where the command starts names (the user's file, as a
 * rule: the editor starts it in the project or the home directory). Undefined with `store = "off"`, and
 * when the configuration cannot be read or the store cannot be opened (better-sqlite3 missing): then the
 * editor is served without saved sessions (`loadSession: false`), and the log says why. Never throws: a
 * configuration error is the session's to report, as it is without sessions.
 */
export async function openAcpSessionStore(sources: AcpSessionStoreSources): Promise<SessionStore | undefined> {
  let location: ReturnType<typeof sessionStoreLocation>;
  try {
    const config = await loadConfig({
      cwd: resolve(sources.cwd),
      userFile: sources.userConfigFile ?? userConfigPath(),
    });
    location = sessionStoreLocation(sessionsConfigOf(config));
  } catch (error) {
    sources.log(`sessions are not saved: ${describe(error)}`);
    return undefined;
  }
  if (!location) return undefined;
  try {
    return await openSessionStore(location);
  } catch (error) {
    sources.log(
      `sessions are not saved: the ${location.kind} store at ${location.path} cannot be opened: ${describe(error)}`,
    );
    return undefined;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
