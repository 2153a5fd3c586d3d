import { randomUUID } from 'node:crypto';
import type { SessionInfo, SessionStore } from '@agentloop/core';
import { CliError } from '../errors/index.js';

/** Which session the command line asks for: `--continue`, `--resume` (with an id, or to pick one). */
export interface SessionRequest {
  continue?: boolean;
  /** An id (or the start of one), or true to pick from a list. */
  resume?: string | true;
}

/** Shows sessions to pick from; resolves with the chosen id, or undefined when the user backs out. */
export type SessionPicker = (sessions: readonly SessionInfo[]) => Promise<string | undefined>;

/** The session a command starts with. */
export interface ChosenSession {
  id: string;
  /** It holds an earlier conversation, which the agent resumes. */
  resumed: boolean;
  /** Something to tell the user (`--continue` found nothing to continue). */
  notice?: string;
  /** Something to warn the user of: the session was saved in another directory, and resumes in this one. */
  warning?: string;
}

/** How many sessions the `--resume` list offers. */
const PICK_LIMIT = 30;

/**
 * The session to start with: a new one; with `--continue` the last one of this directory (a new one when
 * there is none); with `--resume <id>` that one (an id's first characters are enough when only one session
 * starts with them); with a bare `--resume` the one the user picks, this directory's first. A session of
 * another directory comes with a warning that it resumes in this one. Throws a
 * CliError (exit status 2) for an id no session has, or no session to pick from; resolves with undefined
 * when the user backs out of the list.
 */
export async function chooseSession(
  store: SessionStore,
  request: SessionRequest,
  options: { cwd: string; where: string; pick: SessionPicker },
): Promise<ChosenSession | undefined> {
  if (request.resume === true) {
    const here = await store.list({ workspace: options.cwd, limit: PICK_LIMIT });
    const all = here.length < PICK_LIMIT ? await store.list({ limit: PICK_LIMIT }) : [];
    const sessions = [...here, ...all.filter((session) => session.workspace !== options.cwd)].slice(0, PICK_LIMIT);
    if (sessions.length === 0) {
      throw new CliError(`There is no saved session to resume in ${options.where}; start one with agentloop.`, {
        code: 'no_session',
      });
    }
    const id = await options.pick(sessions);
    if (id === undefined) return undefined;
    return resumeIn(
      sessions.find((session) => session.id === id),
      id,
      options.cwd,
    );
  }
  if (typeof request.resume === 'string') {
    const session = await findSession(store, request.resume, options.where);
    return resumeIn(session, session.id, options.cwd);
  }
  if (request.continue) {
    const [last] = await store.list({ workspace: options.cwd, limit: 1 });
    if (last) return { id: last.id, resumed: true };
    return { id: randomUUID(), resumed: false, notice: `No earlier session in ${options.cwd}: this one starts anew.` };
  }
  return { id: randomUUID(), resumed: false };
}

/**
 * A session resumed in `cwd`, with a warning when it was saved in another directory: the agent's tools
 * read, write and run commands in the directory agentloop runs in, not in the one the conversation was
 * about, so the model's memory of files and paths may no longer hold.
 */
function resumeIn(session: SessionInfo | undefined, id: string, cwd: string): ChosenSession {
  const workspace = session?.workspace;
  if (workspace === undefined || workspace === cwd) return { id, resumed: true };
  return {
    id,
    resumed: true,
    warning: `Session ${id} was saved in ${workspace}, not in this directory: it resumes here, in ${cwd}, where its tools now read, write and run commands. To continue it where it was, run agentloop --resume ${id} in ${workspace}.`,
  };
}

/** The session `text` names: by its id, or by the start of exactly one session's id. */
async function findSession(store: SessionStore, text: string, where: string): Promise<SessionInfo> {
  const sessions = await store.list();
  const exact = sessions.find((session) => session.id === text);
  if (exact) return exact;
  const matches = sessions.filter((session) => session.id.startsWith(text));
  const [match, ...others] = matches;
  if (match && others.length === 0) return match;
  if (matches.length > 1) {
    throw new CliError(
      `"${text}" starts the ids of ${matches.length} sessions (${matches.map((session) => session.id).join(', ')}): give more of the id.`,
      { code: 'ambiguous_session' },
    );
  }
  throw new CliError(`No session "${text}" in ${where}: agentloop sessions --all lists them.`, {
    code: 'unknown_session',
  });
}
