import type { PendingQuestion } from '@agentloop/memory';
import type { Message, Usage } from '@agentloop/spec';
// Types only: the schemas that check records are in session-file-schemas.ts, loaded when a file is read.
import type { z } from 'zod';

/**
 * The version of the session file format, in each file's first line. Bump it when a record changes: add
 * the new version's schemas to `FILE_VERSIONS` (session-file-schemas.ts) with a migration of its records to the current shape, and
 * keep the older ones as they are. Saved sessions must keep loading (a frozen file of every version is
 * tested).
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
export type SessionFileRecord = HeaderRecord | TurnRecord;

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

/** A line of a turn: a message it added, the conversation it rewrote, or its commit. */
export type TurnRecord = MessageRecord | ReplaceRecord | CommitRecord;

/** A message the turn added. */
export interface MessageRecord {
  type: 'message';
  turn: number;
  message: Message;
}

/** The turn rewrote the conversation (a compaction). */
export interface ReplaceRecord {
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

/** How to read the records of one version of the file format, into the current shape. */
export interface FileVersion {
  header: z.ZodType<HeaderRecord>;
  record: z.ZodType<TurnRecord>;
}
