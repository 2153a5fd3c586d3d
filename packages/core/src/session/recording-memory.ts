import type { Memory, MemorySnapshot } from '@agentloop/memory';
import type { Message } from '@agentloop/spec';

/** Where a RecordingMemory reports what changed. */
export interface MemoryChanges {
  /** Messages were appended, in order. */
  appended(messages: readonly Message[]): void;
  /** The conversation was rewritten (a clear, a restore, a compaction): it is now `messages`. */
  replaced(messages: readonly Message[]): void;
}

/**
 * A Memory that passes every call on to the agent's memory and reports each change as it happens, so that
 * a session store writes each message when the loop adds it. Reading is not reported.
 */
export class RecordingMemory implements Memory {
  /** The memory that holds the conversation. */
  readonly inner: Memory;
  readonly #changes: MemoryChanges;

  constructor(inner: Memory, changes: MemoryChanges) {
    this.inner = inner;
    this.#changes = changes;
  }

  append(...messages: Message[]): void {
    this.inner.append(...messages);
    this.#changes.appended(messages);
  }

  messages(): readonly Message[] {
    return this.inner.messages();
  }

  clear(): void {
    this.inner.clear();
    this.#changes.replaced(this.inner.messages());
  }

  snapshot(): MemorySnapshot {
    return this.inner.snapshot();
  }

  restore(snapshot: MemorySnapshot): void {
    this.inner.restore(snapshot);
    this.#changes.replaced(this.inner.messages());
  }
}
