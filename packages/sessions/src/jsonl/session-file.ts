import type { PendingQuestion, SessionInfo, SessionTurn } from '@agentloop/memory';
import { SessionStoreError } from '@agentloop/memory';
import type { Message, Usage } from '@agentloop/spec';
import type { SessionState } from '../session-state.js';
import { newSessionState } from '../session-state.js';

/**
 * The version of the session file format, in each file's first line. Bump it when a record changes, and
 * read the older versions through a migration: saved sessions must keep loading (a frozen file of every
 * version is tested).
 */
export const SESSION_FILE_VERSION = 1;

/**
 * A session file is JSON lines, one record a line, only ever appended to (the store cuts off a turn a
 * crashed writer left unfinished before it writes again):
 *
 *   {"type":"session","version":1,"id":...,"createdAt":...}     the first line, fixed at creation
 *   {"type":"message","turn":3,"message":{...}}                  a message the turn added
 *   {"type":"replace","turn":3,"messages":[...]}                 the turn rewrote the conversation
 *   {"type":"commit","turn":3,"at":...,"usage":{...},...}        the turn ended: what it wrote counts
 *
 * A commit also repeats the session's figures after it (title, model, message count, usage), so a list
 * reads the first and the last commit line of a file, not the whole of it.
 */
export type SessionFileRecord = HeaderRecord | MessageRecord | ReplaceRecord | CommitRecord;

/** The first line: what is fixed when the session is created. */
export interface HeaderRecord {
  type: 'session';
  version: number;
  id: string;
  createdAt: string;
  title?: string;
  model?: string;
  workspace?: string;
  forkedFrom?: { sessionId: string; messageCount: number };
}

interface MessageRecord {
  type: 'message';
  turn: number;
  message: Message;
}

interface ReplaceRecord {
  type: 'replace';
  turn: number;
  messages: Message[];
}

/** The end of a turn, with the session's figures after it. */
export interface CommitRecord {
  type: 'commit';
  turn: number;
  at: string;
  usage: Usage;
  exit?: string;
  pendingQuestion?: PendingQuestion;
  title?: string;
  model?: string;
  messageCount: number;
  totalUsage: Usage;
}

/** A record as one line of a session file, its newline included. */
export function recordLine(record: SessionFileRecord): string {
  return `${JSON.stringify(record)}\n`;
}

/** The commit line of a turn, with the session's state after it. */
export function commitRecord(turnNumber: number, turn: SessionTurn, after: SessionState): CommitRecord {
  return {
    type: 'commit',
    turn: turnNumber,
    at: after.updatedAt.toISOString(),
    usage: turn.usage,
    ...(turn.exit === undefined ? {} : { exit: turn.exit }),
    ...(turn.pendingQuestion ? { pendingQuestion: turn.pendingQuestion } : {}),
    ...(after.title === undefined ? {} : { title: after.title }),
    ...(after.model === undefined ? {} : { model: after.model }),
    messageCount: after.messageCount,
    totalUsage: after.usage,
  };
}

/** A session file read up to its last commit. */
export interface SessionFile {
  header: HeaderRecord;
  /** The conversation as of the last commit. */
  messages: Message[];
  state: SessionState;
  /** The size of the file up to the end of the last commit (or of the header): the rest is an unfinished turn. */
  committedBytes: number;
}

/**
 * Reads a session file. The lines after the last commit are an unfinished turn and are left out; so is a
 * last line without its newline (a write cut short). A damaged line anywhere else is an error.
 */
export function parseSessionFile(bytes: Buffer, path: string): SessionFile {
  let header: HeaderRecord | undefined;
  let messages: Message[] = [];
  let state: SessionState | undefined;
  let committedBytes = 0;
  // The turn being read: the records since the last commit.
  let turn: { number: number; replaced: Message[] | undefined; added: Message[] } | undefined;
  let start = 0;
  let lineNumber = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(0x0a, start);
    if (end === -1) break;
    lineNumber++;
    const record = parseRecord(bytes.toString('utf8', start, end), path, lineNumber);
    start = end + 1;
    if (!header) {
      header = checkHeader(record, path);
      state = newSessionState({ title: header.title, model: header.model, at: new Date(header.createdAt) });
      committedBytes = start;
      continue;
    }
    if (record.type === 'session') throw damaged(path, lineNumber, 'a second session header');
    // A record of another turn than the one being read: that turn was never committed.
    if (turn && turn.number !== record.turn) turn = undefined;
    turn ??= { number: record.turn, replaced: undefined, added: [] };
    if (record.type === 'message') turn.added.push(record.message);
    else if (record.type === 'replace') {
      turn.replaced = record.messages;
      turn.added = [];
    } else {
      messages = turn.replaced ? [...turn.replaced, ...turn.added] : messages.concat(turn.added);
      if (messages.length !== record.messageCount) {
        throw damaged(path, lineNumber, `a commit of ${record.messageCount} messages after ${messages.length}`);
      }
      state = stateOfCommit(header, record);
      committedBytes = start;
      turn = undefined;
    }
  }
  // The header sets the state, so neither is there without the other.
  if (!header || !state) {
    throw new SessionStoreError(`${path} has no session header: it is not a session file, or it was damaged.`, {
      code: 'invalid_session',
    });
  }
  return { header, messages, state, committedBytes };
}

/**
 * The header and the last commit of a file, from its first and last bytes (`head`, `tail`), for a list.
 * Undefined when the tail holds no whole commit line: then the whole file has to be read.
 */
export function readSummary(
  head: Buffer,
  tail: Buffer,
  tailIsWholeFile: boolean,
  path: string,
): { header: HeaderRecord; lastCommit: CommitRecord | undefined } | undefined {
  const firstEnd = head.indexOf(0x0a);
  if (firstEnd === -1) return undefined;
  const header = checkHeader(parseRecord(head.toString('utf8', 0, firstEnd), path, 1), path);
  // Lines from the end: a record starts with its type, so `{"type":"commit"` begins only a commit line.
  let end = tail.lastIndexOf(0x0a);
  while (end > 0) {
    const start = tail.lastIndexOf(0x0a, end - 1) + 1;
    // The first line of a tail that is not the whole file may be cut: it cannot be read.
    if (start === 0 && !tailIsWholeFile) return undefined;
    const line = tail.toString('utf8', start, end);
    if (line.startsWith('{"type":"commit"')) {
      return { header, lastCommit: parseRecord(line, path, 0) as CommitRecord };
    }
    if (line.startsWith('{"type":"session"')) return { header, lastCommit: undefined };
    end = start - 1;
  }
  return tailIsWholeFile ? { header, lastCommit: undefined } : undefined;
}

/** The info of a session file from its header and its state. */
export function fixedInfo(header: HeaderRecord): Pick<SessionInfo, 'id' | 'workspace' | 'createdAt' | 'forkedFrom'> {
  return {
    id: header.id,
    workspace: header.workspace,
    createdAt: new Date(header.createdAt),
    ...(header.forkedFrom ? { forkedFrom: header.forkedFrom } : {}),
  };
}

/** The state a commit line records. */
export function stateOfCommit(header: HeaderRecord, commit: CommitRecord | undefined): SessionState {
  if (!commit) return newSessionState({ title: header.title, model: header.model, at: new Date(header.createdAt) });
  return {
    title: commit.title,
    model: commit.model,
    turnCount: commit.turn,
    messageCount: commit.messageCount,
    usage: commit.totalUsage,
    pendingQuestion: commit.pendingQuestion,
    updatedAt: new Date(commit.at),
  };
}

function parseRecord(line: string, path: string, lineNumber: number): SessionFileRecord {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw damaged(path, lineNumber, 'a line that is not JSON');
  }
  const record = value as Partial<SessionFileRecord> | null;
  const type = record?.type;
  if (type === 'session') return record as HeaderRecord;
  if (!Number.isInteger((record as { turn?: unknown }).turn))
    throw damaged(path, lineNumber, 'a record without a turn');
  if (type === 'message' && isMessage((record as MessageRecord).message)) return record as MessageRecord;
  if (type === 'replace' && Array.isArray((record as ReplaceRecord).messages)) {
    if ((record as ReplaceRecord).messages.every(isMessage)) return record as ReplaceRecord;
  }
  if (type === 'commit' && typeof (record as CommitRecord).at === 'string') return record as CommitRecord;
  throw damaged(path, lineNumber, `a record of unknown shape (${JSON.stringify(type) ?? 'no type'})`);
}

function checkHeader(record: SessionFileRecord, path: string): HeaderRecord {
  if (record.type !== 'session') throw damaged(path, 1, 'no session header');
  if (record.version !== SESSION_FILE_VERSION) {
    throw new SessionStoreError(
      `${path} is a session file of version ${JSON.stringify(record.version)}; this version of @agentloop/sessions reads version ${SESSION_FILE_VERSION}. Update agentloop to read it.`,
      { code: 'unsupported_session_version', sessionId: typeof record.id === 'string' ? record.id : undefined },
    );
  }
  if (typeof record.id !== 'string' || typeof record.createdAt !== 'string')
    throw damaged(path, 1, 'a header without id');
  return record;
}

function isMessage(value: unknown): value is Message {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Message).role === 'string' &&
    Array.isArray((value as Message).content)
  );
}

function damaged(path: string, lineNumber: number, what: string): SessionStoreError {
  const where = lineNumber > 0 ? `line ${lineNumber} of ${path}` : path;
  return new SessionStoreError(
    `${where} holds ${what}: the session file was damaged. Remove the damaged lines from the file, or delete the session.`,
    { code: 'invalid_session' },
  );
}
