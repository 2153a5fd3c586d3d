import type { PendingQuestion, SessionInfo } from '@agentloop/memory';
import type { Usage } from '@agentloop/spec';
import type { SessionWriter } from '../lock/session-writer.js';
import { parseWriter } from '../lock/session-writer.js';
import type { SessionState } from '../session-state.js';
import { sessionInfo } from '../session-state.js';

/** A row of the sessions table, as the store writes it (JSON in text columns). */
export interface SessionRow {
  id: string;
  title: string | null;
  model: string | null;
  workspace: string | null;
  created_at: number;
  updated_at: number;
  turn_count: number;
  message_count: number;
  usage: string;
  pending_question: string | null;
  forked_from: string | null;
  forked_at_message: number | null;
  writer: string | null;
}

/** A row of the sessions table once read and checked: its JSON columns decoded. */
export interface SessionRecord {
  id: string;
  title: string | null;
  model: string | null;
  workspace: string | null;
  createdAt: Date;
  updatedAt: Date;
  turnCount: number;
  messageCount: number;
  usage: Usage;
  pendingQuestion: PendingQuestion | null;
  forkedFrom: string | null;
  forkedAtMessage: number | null;
}

/** The writer a row's `writer` column names; a damaged one counts as no lock. */
export function writerOfColumn(text: string | null): SessionWriter | undefined {
  if (text === null) return undefined;
  try {
    return parseWriter(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** What a session is as of its last commit, from its row. */
export function stateOf(record: SessionRecord): SessionState {
  return {
    title: record.title ?? undefined,
    model: record.model ?? undefined,
    turnCount: record.turnCount,
    messageCount: record.messageCount,
    usage: record.usage,
    pendingQuestion: record.pendingQuestion ?? undefined,
    updatedAt: record.updatedAt,
  };
}

/** The info a list shows, from a session's row. */
export function infoOf(record: SessionRecord): SessionInfo {
  return sessionInfo(
    {
      id: record.id,
      workspace: record.workspace ?? undefined,
      createdAt: record.createdAt,
      ...(record.forkedFrom === null
        ? {}
        : { forkedFrom: { sessionId: record.forkedFrom, messageCount: record.forkedAtMessage ?? 0 } }),
    },
    stateOf(record),
  );
}
