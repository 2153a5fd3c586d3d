import { randomUUID } from 'node:crypto';
import type { AgentSessionOptions, SessionStore } from '@agentloop/core';
import type { SessionSettings } from '../config/index.js';
import { CliError } from '../errors/index.js';
import type { SessionPicker, SessionRequest } from './choose-session.js';
import { chooseSession } from './choose-session.js';
import { openSessionStore } from './open-session-store.js';
import { sessionStoreLocation, sessionsConfigOf } from './session-store-location.js';

/** The session a command runs in, once `--continue` or `--resume` chose it. */
export interface PreparedSession {
  /** What the agent gets as its `session` option; undefined when sessions are not saved. */
  options: Promise<AgentSessionOptions | undefined>;
  /** The store, for `/sessions`; undefined when sessions are not saved. */
  store: Promise<SessionStore> | undefined;
  /** The session's id; undefined when sessions are not saved. */
  sessionId: string | undefined;
  /** The session holds an earlier conversation: the executor shows where it stopped. */
  resumed: boolean;
  /** Something to tell the user before the session starts. */
  notice?: string;
  /** Something to warn the user of before the session starts (it was saved in another directory). */
  warning?: string;
  /** Closes the store, releasing the session for another agentloop. */
  close(): Promise<void>;
}

/**
 * The session the command starts with, in the store the configuration names. A new session opens its
 * store in the background, while the prompt is drawn; `--continue` and `--resume` open it first, to find
 * the session (and `--resume` without an id asks which with `pick`). Resolves with undefined when the user
 * backs out of the list; throws a CliError for a session that cannot be found, or when sessions are off.
 */
export async function prepareSession(
  settings: SessionSettings,
  request: SessionRequest,
  pick: SessionPicker,
): Promise<PreparedSession | undefined> {
  const location = sessionStoreLocation(sessionsConfigOf(settings.config));
  const asked = request.continue ? '--continue' : request.resume !== undefined ? '--resume' : undefined;
  if (!location) {
    if (asked) {
      throw new CliError(`${asked} has no session to resume: the configuration says [sessions] store = "off".`, {
        code: 'sessions_off',
      });
    }
    return {
      options: Promise.resolve(undefined),
      store: undefined,
      sessionId: undefined,
      resumed: false,
      close: async () => {},
    };
  }
  if (!asked) {
    const sessionId = randomUUID();
    const store = openSessionStore(location);
    const options = store.then((opened) => ({ store: opened, id: sessionId }));
    // A store that cannot open (better-sqlite3 missing, a damaged database) fails the agent's start, which
    // reports it. Both promises are marked handled now: the start awaits them later, and a rejection left
    // unhandled until then would end the process with a stack trace.
    store.catch(() => undefined);
    options.catch(() => undefined);
    return {
      options,
      store,
      sessionId,
      resumed: false,
      close: () => store.then((opened) => opened.close()).catch(() => undefined),
    };
  }
  const store = await openSessionStore(location);
  try {
    const chosen = await chooseSession(store, request, { cwd: settings.cwd, where: location.path, pick });
    if (!chosen) {
      await store.close();
      return undefined;
    }
    return {
      options: Promise.resolve({ store, id: chosen.id }),
      store: Promise.resolve(store),
      sessionId: chosen.id,
      resumed: chosen.resumed,
      ...(chosen.notice ? { notice: chosen.notice } : {}),
      ...(chosen.warning ? { warning: chosen.warning } : {}),
      close: () => store.close(),
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
