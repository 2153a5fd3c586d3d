import { randomUUID } from 'node:crypto';
import type { PendingQuestion, SessionInfo, SessionTurn, StoredSession } from '@agentloop/memory';
import { assertSessionId, SessionStoreError } from '@agentloop/memory';
import type { Message, Usage } from '@agentloop/spec';
import { addUsage, emptyUsage } from '@agentloop/spec';

/** What a session is as of its last commit: the figures both stores keep beside the messages. */
export interface SessionState {
  title: string | undefined;
  model: string | undefined;
  turnCount: number;
  messageCount: number;
  usage: Usage;
  pendingQuestion: PendingQuestion | undefined;
  updatedAt: Date;
}

/** The state of a session just created. */
export function newSessionState(options: { title?: string; model?: string; at: Date }): SessionState {
  return {
    title: options.title,
    model: options.model,
    turnCount: 0,
    messageCount: 0,
    usage: emptyUsage(),
    pendingQuestion: undefined,
    updatedAt: options.at,
  };
}

/** The state after a commit of `turn` that leaves the conversation `messageCount` messages long. */
export function stateAfterCommit(state: SessionState, turn: SessionTurn, messageCount: number, at: Date): SessionState {
  return {
    title: state.title ?? turn.title,
    model: turn.model ?? state.model,
    turnCount: state.turnCount + 1,
    messageCount,
    usage: addUsage(state.usage, turn.usage),
    pendingQuestion: turn.pendingQuestion,
    updatedAt: at,
  };
}

/** Input and output tokens: what a list shows of a session's usage. */
export function tokenCount(usage: Usage): number {
  return usage.inputTokens + usage.outputTokens;
}

/** The info a list shows, from a session's state and the facts fixed at its creation. */
export function sessionInfo(
  fixed: Pick<SessionInfo, 'id' | 'workspace' | 'createdAt' | 'forkedFrom'>,
  state: SessionState,
): SessionInfo {
  return {
    id: fixed.id,
    title: state.title,
    model: state.model,
    workspace: fixed.workspace,
    createdAt: fixed.createdAt,
    updatedAt: state.updatedAt,
    turnCount: state.turnCount,
    messageCount: state.messageCount,
    tokenCount: tokenCount(state.usage),
    ...(fixed.forkedFrom ? { forkedFrom: fixed.forkedFrom } : {}),
  };
}

/** A session as `open` and `load` give it: its info, its messages, and what its state holds for an agent. */
export function storedSession(info: SessionInfo, state: SessionState, messages: Message[]): StoredSession {
  return { info, messages, usage: state.usage, pendingQuestion: state.pendingQuestion };
}

/** The id of a session `create` makes: the given one, checked, or a random UUID. */
export function newSessionId(id: string | undefined): string {
  const chosen = id ?? randomUUID();
  assertSessionId(chosen);
  return chosen;
}

/** Checks what `commit` was given: a bad turn would be saved and break every later load. */
export function checkTurn(sessionId: string, turn: SessionTurn): void {
  const usage = turn?.usage as Partial<Usage> | undefined;
  const fields: (keyof Usage)[] = [
    'inputTokens',
    'outputTokens',
    'cacheReadTokens',
    'cacheWriteTokens',
    'reasoningTokens',
  ];
  if (typeof usage !== 'object' || usage === null || !fields.every((field) => Number.isFinite(usage[field]))) {
    throw new SessionStoreError(
      `The turn committed to session ${sessionId} has no valid usage: give every Usage field as a number (emptyUsage() for none).`,
      { code: 'invalid_session', sessionId },
    );
  }
}

/** The error for a session id that has no session. */
export function sessionNotFound(sessionId: string, where: string): SessionStoreError {
  return new SessionStoreError(`No session ${sessionId} in ${where}.`, { code: 'session_not_found', sessionId });
}

/** The error for an append, replace or commit on a session this store has not opened. */
export function sessionNotOpen(sessionId: string, operation: string): SessionStoreError {
  return new SessionStoreError(
    `Cannot ${operation} session ${sessionId}: this store has not opened it. Call store.open("${sessionId}") first.`,
    { code: 'session_not_open', sessionId },
  );
}

/** The error for a use of a closed store. */
export function storeClosed(): SessionStoreError {
  return new SessionStoreError('This session store was closed; create a new one to go on.', {
    code: 'session_store_closed',
  });
}
