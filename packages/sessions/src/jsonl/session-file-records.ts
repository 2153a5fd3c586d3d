import type { PendingQuestion } from '@agentloop/memory';
import type { Message, Usage } from '@agentloop/spec';
import { z } from 'zod';
import {
  forkedFromSchema,
  isoDateSchema,
  messageSchema,
  pendingQuestionSchema,
  usageSchema,
} from '../records/saved-values.js';

/**
 * The version of the session file format, in each file's first line. Bump it when a record changes: add
 * the new version's schemas to `FILE_VERSIONS` with a migration of its records to the current shape, and
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

const turn = z.number().int().positive();
const count = z.number().int().nonnegative();

/** Version 1, as released. Never changed: a later version is a new entry. */
const VERSION_1: FileVersion = {
  header: z.object({
    type: z.literal('session'),
    version: z.literal(1),
    id: z.string(),
    createdAt: isoDateSchema,
    title: z.string().optional(),
    model: z.string().optional(),
    workspace: z.string().optional(),
    forkedFrom: forkedFromSchema.optional(),
  }),
  record: z.discriminatedUnion('type', [
    z.object({ type: z.literal('message'), turn, message: messageSchema }),
    z.object({ type: z.literal('replace'), turn, messages: z.array(messageSchema) }),
    z.object({
      type: z.literal('commit'),
      turn,
      at: isoDateSchema,
      usage: usageSchema,
      exit: z.string().optional(),
      pendingQuestion: pendingQuestionSchema.optional(),
      title: z.string().optional(),
      model: z.string().optional(),
      messageCount: count,
      totalUsage: usageSchema,
    }),
  ]),
};

/** Every version of the file format this version of the store reads, by its number. */
export const FILE_VERSIONS: ReadonlyMap<number, FileVersion> = new Map([[1, VERSION_1]]);
