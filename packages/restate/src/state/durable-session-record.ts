import type { PendingQuestion, SessionInfo, StoredSession } from '@agentloop/memory';
import { SessionStoreError } from '@agentloop/memory';
import type { Message, Usage } from '@agentloop/spec';

/** The version of the session record kept in a durable agent's object state; a reader refuses others. */
export const DURABLE_SESSION_VERSION = 1;

/** A session as a durable agent keeps it in its Virtual Object's state (key `session`), as JSON. */
export interface DurableSessionRecord {
  /** `DURABLE_SESSION_VERSION` when it was written. */
  schemaVersion: number;
  /** What a list shows of the session, its dates as ISO text. */
  info: Omit<SessionInfo, 'createdAt' | 'updatedAt' | 'forkedFrom'> & { createdAt: string; updatedAt: string };
  /** The conversation, oldest first. */
  messages: Message[];
  /** The token usage of its turns, added up. */
  usage: Usage;
  /** The question the last turn ended with, which the next input answers. */
  pendingQuestion?: PendingQuestion;
}

/**
 * The record read from the object's state, checked: a record of another version, or one that is not a
 * session record at all, is refused with an `invalid_session` (or `unsupported_session_version`) error
 * naming the session, rather than handed to the loop half-read.
 */
export function checkedSessionRecord(sessionId: string, value: unknown): DurableSessionRecord {
  const record = value as Partial<DurableSessionRecord> | null;
  if (typeof record !== 'object' || record === null || typeof record.schemaVersion !== 'number') {
    throw new SessionStoreError(
      `Session ${sessionId}: the object's state key "session" does not hold a session record. Clear the object's state (restate kv clear) or use another session id.`,
      { code: 'invalid_session', sessionId },
    );
  }
  if (record.schemaVersion !== DURABLE_SESSION_VERSION) {
    throw new SessionStoreError(
      `Session ${sessionId} was saved as version ${record.schemaVersion}; this @agentloop/restate reads version ${DURABLE_SESSION_VERSION}. Update @agentloop/restate on every worker.`,
      { code: 'unsupported_session_version', sessionId },
    );
  }
  if (!Array.isArray(record.messages) || typeof record.info !== 'object' || typeof record.usage !== 'object') {
    throw new SessionStoreError(
      `Session ${sessionId}: the session record in the object's state lacks its messages, info or usage.`,
      { code: 'invalid_session', sessionId },
    );
  }
  return record as DurableSessionRecord;
}

/** The record as a SessionStore's StoredSession. */
export function storedSessionOf(record: DurableSessionRecord): StoredSession {
  const { createdAt, updatedAt, ...info } = record.info;
  return {
    info: { ...info, createdAt: new Date(createdAt), updatedAt: new Date(updatedAt) },
    messages: [...record.messages],
    usage: record.usage,
    pendingQuestion: record.pendingQuestion,
  };
}
