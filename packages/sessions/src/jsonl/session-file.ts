import { basename } from 'node:path';
import type { SessionInfo, SessionTurn } from '@agentloop/memory';
import { SessionStoreError } from '@agentloop/memory';
import type { Message } from '@agentloop/spec';
import { recordSchemas } from '../records/load-record-schemas.js';
import { savedJson } from '../records/message-json.js';
import { invalidRecord, parseRecord } from '../records/record-problem.js';
import type { SessionState } from '../session-state.js';
import { newSessionState } from '../session-state.js';
import type { CommitRecord, FileVersion, HeaderRecord, SessionFileRecord, TurnRecord } from './session-file-records.js';
import { SESSION_FILE_VERSION } from './session-file-records.js';

/** A record as one line of a session file, its newline included; a message JSON cannot hold is refused. */
export function recordLine(record: SessionFileRecord): string {
  return `${savedJson(record)}\n`;
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
  let version: FileVersion | undefined;
  let start = 0;
  let lineNumber = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(0x0a, start);
    if (end === -1) break;
    lineNumber++;
    const line = bytes.toString('utf8', start, end);
    start = end + 1;
    if (!header || !version) {
      ({ header, version } = readHeader(line, path));
      state = newSessionState({ title: header.title, model: header.model, at: new Date(header.createdAt) });
      committedBytes = start;
      continue;
    }
    const record = readRecord(line, version, path, lineNumber);
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
        throw invalidRecord({
          sessionId: sessionIdOf(path),
          where: `line ${lineNumber} of ${path}`,
          problem: `a commit of ${record.messageCount} messages after ${messages.length}`,
          advice: capitalised(ADVICE),
        });
      }
      state = stateOfCommit(header, record);
      committedBytes = start;
      turn = undefined;
    }
  }
  // The header sets the state, so neither is there without the other.
  if (!header || !state) {
    throw invalidRecord({
      sessionId: sessionIdOf(path),
      where: path,
      problem: 'it has no session header',
      advice: `It is not a session file, or it was cut short: ${ADVICE}`,
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
  const { header, version } = readHeader(head.toString('utf8', 0, firstEnd), path);
  // Lines from the end: a record starts with its type, so `{"type":"commit"` begins only a commit line.
  let end = tail.lastIndexOf(0x0a);
  while (end > 0) {
    const start = tail.lastIndexOf(0x0a, end - 1) + 1;
    // The first line of a tail that is not the whole file may be cut: it cannot be read.
    if (start === 0 && !tailIsWholeFile) return undefined;
    const line = tail.toString('utf8', start, end);
    if (line.startsWith('{"type":"commit"')) {
      const record = readRecord(line, version, path, undefined);
      if (record.type === 'commit') return { header, lastCommit: record };
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

// What to do about a damaged line: the session cannot be read as it is, and nothing else is affected.
const ADVICE = 'repair that line, or move the file aside to start the session over (other sessions are not affected).';

/** The session id a file is named after: what an error about it names before the file is read. */
function sessionIdOf(path: string): string {
  return basename(path, '.jsonl');
}

/** The first line: the header, checked against the schema of the version it names. */
function readHeader(line: string, path: string): { header: HeaderRecord; version: FileVersion } {
  const value = parseJson(line, path, 1);
  const sessionId = sessionIdOf(path);
  const place = { sessionId, where: `line 1 of ${path}`, advice: capitalised(ADVICE) };
  if (typeof value !== 'object' || value === null || (value as { type?: unknown }).type !== 'session') {
    throw invalidRecord({
      ...place,
      problem: 'it is not a session header',
      advice: `It is not a session file: ${ADVICE}`,
    });
  }
  const number = (value as { version?: unknown }).version;
  const version = typeof number === 'number' ? recordSchemas().FILE_VERSIONS.get(number) : undefined;
  if (!version && typeof number === 'number' && Number.isInteger(number) && number > SESSION_FILE_VERSION) {
    throw new SessionStoreError(
      `${path} is a session file of version ${number}; this version of @agentloop/sessions reads version ${SESSION_FILE_VERSION}. Update agentloop to read it.`,
      { code: 'unsupported_session_version', sessionId },
    );
  }
  if (!version) {
    throw invalidRecord({ ...place, problem: `version: no session file version is ${JSON.stringify(number)}` });
  }
  return { header: parseRecord(version.header, value, place), version };
}

/** A line after the header, checked against its version's schema; `lineNumber` undefined when unknown. */
function readRecord(line: string, version: FileVersion, path: string, lineNumber: number | undefined): TurnRecord {
  const where = lineNumber === undefined ? `a line of ${path}` : `line ${lineNumber} of ${path}`;
  const value = parseJson(line, path, lineNumber);
  return parseRecord(version.record, value, { sessionId: sessionIdOf(path), where, advice: capitalised(ADVICE) });
}

function parseJson(line: string, path: string, lineNumber: number | undefined): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw invalidRecord({
      sessionId: sessionIdOf(path),
      where: lineNumber === undefined ? `a line of ${path}` : `line ${lineNumber} of ${path}`,
      problem: 'it is not JSON',
      advice: capitalised(ADVICE),
    });
  }
}

function capitalised(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
