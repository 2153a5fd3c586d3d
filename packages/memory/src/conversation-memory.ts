import type { Message } from '@agentloop/spec';
import { AgentloopError, findHistoryProblem } from '@agentloop/spec';

/** The snapshot format version; bump it and add a migration when the Message model changes. */
export const MEMORY_SCHEMA_VERSION = 1;

const ROLES: ReadonlySet<string> = new Set(['system', 'user', 'assistant', 'tool']);

function invalidSnapshot(reason: string): AgentloopError {
  return new AgentloopError(`Not a memory snapshot: ${reason}.`, { code: 'invalid_snapshot' });
}

/** A conversation saved as JSON. */
export interface MemorySnapshot {
  /** The version of the format, `MEMORY_SCHEMA_VERSION` when written. */
  schemaVersion: number;
  /** The messages, oldest first. */
  messages: Message[];
}

/**
 * What the agent needs from a conversation store. `ConversationMemory` is the default; token-aware,
 * compacting and persistent stores implement the same contract.
 */
export interface Memory {
  /** Adds messages at the end. */
  append(...messages: Message[]): void;
  /**
   * All messages, oldest first. The array must not be changed by the caller, and a message is never
   * changed once appended: a store that rewrites history (compaction) replaces messages instead. A store
   * may return its own array, growing as messages are appended: the agent then reads only the new ones
   * before each request. A store that rewrites history should then return a new array (a rewrite in the
   * same array is noticed when it changed the first message or the last one the agent read, and at the
   * agent's next run).
   */
  messages(): readonly Message[];
  /** Forgets the conversation, keeping system messages. */
  clear(): void;
  /** The conversation as a JSON-safe snapshot. */
  snapshot(): MemorySnapshot;
  /** Replaces the conversation with a snapshot's; refuses one whose history no provider would accept. */
  restore(snapshot: MemorySnapshot): void;
}

/** An in-memory conversation. Snapshots deep-copy, so a saved snapshot never changes afterwards. */
export class ConversationMemory implements Memory {
  #messages: Message[] = [];

  constructor(messages: Iterable<Message> = []) {
    this.#messages = [...messages];
  }

  /** Rebuilds a memory from a snapshot; throws a clear error for an unknown or malformed snapshot. */
  static fromSnapshot(snapshot: unknown): ConversationMemory {
    const memory = new ConversationMemory();
    memory.restore(snapshot as MemorySnapshot);
    return memory;
  }

  append(...messages: Message[]): void {
    this.#messages.push(...messages);
  }

  /** Its own array, which appends grow; a clear or restore makes a new one. */
  messages(): readonly Message[] {
    return this.#messages;
  }

  /** How many messages the conversation holds. */
  get length(): number {
    return this.#messages.length;
  }

  clear(): void {
    this.#messages = this.#messages.filter((message) => message.role === 'system');
  }

  snapshot(): MemorySnapshot {
    return { schemaVersion: MEMORY_SCHEMA_VERSION, messages: structuredClone(this.#messages) };
  }

  restore(snapshot: MemorySnapshot): void {
    if (typeof snapshot !== 'object' || snapshot === null)
      throw invalidSnapshot('expected an object with "schemaVersion" and "messages"');
    // The version comes first: a newer snapshot may have another shape, and should say so.
    if (snapshot.schemaVersion !== MEMORY_SCHEMA_VERSION) {
      throw new AgentloopError(
        `Memory snapshot has schemaVersion ${JSON.stringify(snapshot.schemaVersion)}; this version of @agentloop/memory reads version ${MEMORY_SCHEMA_VERSION}.`,
        { code: 'unsupported_snapshot_version' },
      );
    }
    if (!Array.isArray(snapshot.messages)) throw invalidSnapshot('"messages" is not an array');
    snapshot.messages.forEach((message, index) => {
      if (
        typeof message !== 'object' ||
        message === null ||
        !ROLES.has(message.role) ||
        !Array.isArray(message.content)
      ) {
        throw invalidSnapshot(`message ${index} has no valid "role" and "content" array`);
      }
    });
    // A snapshot edited by hand, or saved by a buggy store, would make every later request fail: refuse
    // it here, where the user can still fix the file, rather than at the next request.
    const problem = findHistoryProblem(snapshot.messages);
    if (problem) throw invalidSnapshot(problem);
    this.#messages = structuredClone(snapshot.messages);
  }
}
