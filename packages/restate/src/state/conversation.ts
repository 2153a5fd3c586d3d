import type { SessionStore, SessionTurn } from '@agentloop/memory';
import type { Message, Usage } from '@agentloop/spec';
import { AgentloopError, emptyUsage } from '@agentloop/spec';
import type { ObjectContext, RunOptions } from '@restatedev/restate-sdk';
import { ObjectSessionStore } from './object-session-store.js';

/** The conversation a run starts from. */
export interface LoadedConversation {
  messages: Message[];
  usage: Usage;
}

/** Where a durable agent keeps its conversation between runs. */
export interface DurableConversation {
  /** The conversation as the last run left it (empty for a new session). */
  load(): Promise<LoadedConversation>;
  /** Saves the conversation a run ended with, as one turn. */
  save(messages: readonly Message[], turn: SessionTurn): Promise<void>;
}

/** The conversation in the object's own state (`ObjectSessionStore`). */
export function objectConversation(context: ObjectContext): DurableConversation {
  const store = new ObjectSessionStore(context);
  const sessionId = context.key;
  return {
    load: async () => {
      const stored = await openOrCreate(store, sessionId);
      return { messages: stored.messages, usage: stored.usage };
    },
    save: async (messages, turn) => {
      await store.replace(sessionId, messages);
      await store.commit(sessionId, turn);
      await store.release(sessionId);
    },
  };
}

/**
 * The conversation in an app's SessionStore (PostgreSQL, SQLite …), read and written in journal steps, so
 * a replay reads what the first execution read and a turn is saved once. Restate's key is the session's
 * lock: the run reads without taking the store's lock, and takes it only for the moment of the save step,
 * so a worker that dies in a run leaves no lock behind for the next one to wait out.
 */
export function storeConversation(
  context: ObjectContext,
  store: SessionStore,
  runOptions: RunOptions<unknown>,
): DurableConversation {
  const sessionId = context.key;
  return {
    load: () =>
      context.run(
        'session:load',
        async (): Promise<LoadedConversation> => {
          try {
            const stored = await store.load(sessionId);
            return { messages: stored.messages, usage: stored.usage };
          } catch (error) {
            if (isCode(error, 'session_not_found')) return { messages: [], usage: emptyUsage() };
            throw error;
          }
        },
        runOptions as RunOptions<LoadedConversation>,
      ),
    save: (messages, turn) =>
      context.run(
        'session:save',
        async () => {
          await openOrCreate(store, sessionId);
          try {
            await store.replace(sessionId, messages);
            await store.commit(sessionId, turn);
          } finally {
            await store.release(sessionId);
          }
        },
        runOptions as RunOptions<void>,
      ),
  };
}

async function openOrCreate(store: SessionStore, sessionId: string) {
  try {
    return await store.open(sessionId);
  } catch (error) {
    if (!isCode(error, 'session_not_found')) throw error;
  }
  try {
    await store.create({ id: sessionId });
  } catch (error) {
    if (!isCode(error, 'session_exists')) throw error;
  }
  return store.open(sessionId);
}

function isCode(error: unknown, code: string): boolean {
  return AgentloopError.isInstance(error) && error.code === code;
}
