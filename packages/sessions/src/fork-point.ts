import { randomUUID } from 'node:crypto';
import type { ForkSessionOptions, StoredSession } from '@agentloop/memory';
import { assertSessionId, SessionStoreError } from '@agentloop/memory';
import type { Message } from '@agentloop/spec';
import { findHistoryProblem } from '@agentloop/spec';

/** What a fork starts with, whichever store writes it. */
export interface ForkPlan {
  /** The new session's id: the given one, or a random UUID. */
  id: string;
  title: string | undefined;
  model: string | undefined;
  workspace: string | undefined;
  /** The messages it keeps: the source's first ones. */
  messages: Message[];
  forkedFrom: { sessionId: string; messageCount: number };
}

/** The fork of `source` that `options` ask for; throws as `forkedMessages` and `assertSessionId` do. */
export function planFork(sessionId: string, source: StoredSession, options: ForkSessionOptions): ForkPlan {
  const messages = forkedMessages(sessionId, source.messages, options.keepMessages);
  const id = options.id ?? randomUUID();
  assertSessionId(id);
  return {
    id,
    title: options.title ?? source.info.title,
    model: source.info.model,
    workspace: source.info.workspace,
    messages,
    forkedFrom: { sessionId, messageCount: messages.length },
  };
}

/**
 * The first `keepMessages` messages of a session, for a fork; throws `invalid_fork_point` for a count out
 * of range or a cut between a tool call and its result, which would leave a history no provider accepts.
 */
export function forkedMessages(sessionId: string, messages: readonly Message[], keepMessages?: number): Message[] {
  const count = keepMessages ?? messages.length;
  if (!Number.isInteger(count) || count < 0 || count > messages.length) {
    throw new SessionStoreError(
      `Cannot fork session ${sessionId} at ${count} messages: it holds ${messages.length}; keep a whole number from 0 to ${messages.length}.`,
      { code: 'invalid_fork_point', sessionId },
    );
  }
  const kept = messages.slice(0, count);
  const problem = findHistoryProblem(kept);
  if (problem) {
    throw new SessionStoreError(
      `Cannot fork session ${sessionId} at ${count} messages: ${problem}. Keep one message more or fewer, so that every tool call keeps its result.`,
      { code: 'invalid_fork_point', sessionId },
    );
  }
  return kept;
}
