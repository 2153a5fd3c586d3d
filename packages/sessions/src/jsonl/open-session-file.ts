import type { FileHandle } from 'node:fs/promises';
import type { SessionTurn } from '@agentloop/memory';
import type { Message } from '@agentloop/spec';
import type { SessionWriter } from '../lock/session-writer.js';
import type { SessionState } from '../session-state.js';
import { stateAfterCommit } from '../session-state.js';
import { commitRecord, recordLine } from './session-file.js';
import type { SessionFileRecord } from './session-file-records.js';

/** What a session file holds when it is opened for writing. */
export interface OpenSessionFileParts {
  writer: SessionWriter;
  handle: FileHandle;
  /** The session as of its last commit. */
  state: SessionState;
  /** How many messages the conversation holds as of its last commit. */
  messageCount: number;
  /** The file's size at the end of its last commit. */
  committedBytes: number;
  /** Stops the renewals of its lease (and waits for one in flight). */
  stopRenewal: () => Promise<void>;
}

/**
 * A session file open for writing, with its open turn: appends the turn's records one after the other,
 * commits the turn with a synced commit line, and cuts the file back to its last commit when the turn
 * fails or is dropped, so that a reader only ever sees whole turns.
 */
export class OpenSessionFile {
  readonly writer: SessionWriter;
  readonly handle: FileHandle;
  readonly stopRenewal: () => Promise<void>;
  /** The number of the open turn. */
  turn: number;
  /** The session as of its last commit. */
  state: SessionState;
  /** How many messages the conversation holds with the open turn's. */
  messageCount: number;
  /** The file's size, and its size at the end of the last commit. */
  bytes: number;
  committedBytes: number;
  /** The first failure of the open turn: its commit fails with it, and the turn is dropped. */
  failure: unknown;
  /** Set when another writer took the lock: the file is theirs now, and is not touched again. */
  lockLost = false;
  /** Its writes, one after the other. */
  queue: Promise<unknown> = Promise.resolve();

  constructor(parts: OpenSessionFileParts) {
    this.writer = parts.writer;
    this.handle = parts.handle;
    this.stopRenewal = parts.stopRenewal;
    this.turn = parts.state.turnCount + 1;
    this.state = parts.state;
    this.messageCount = parts.messageCount;
    this.bytes = parts.committedBytes;
    this.committedBytes = parts.committedBytes;
  }

  /** Runs an operation on the file after those queued before it. */
  enqueue<T>(operation: () => Promise<T>): Promise<T> {
    const next = this.queue.then(operation);
    this.queue = next.catch(() => {});
    return next;
  }

  /** Appends a record of the open turn; `messages` says what the conversation becomes (a count added, or a new list). */
  write(record: () => SessionFileRecord, messages: number | readonly Message[]): Promise<void> {
    return this.enqueue(async () => {
      // A turn that already failed is dropped at its commit: writing more of it is of no use.
      if (this.failure !== undefined) throw this.failure;
      try {
        const line = recordLine(record());
        await this.handle.write(line);
        this.bytes += Buffer.byteLength(line);
        this.messageCount = typeof messages === 'number' ? this.messageCount + messages : messages.length;
      } catch (error) {
        this.failure = error;
        throw error;
      }
    });
  }

  /**
   * Ends the open turn with a commit line, synced to disk, once `assertLockHeld` says the file is still
   * this writer's. A turn that failed before, or whose commit fails, is dropped, and the commit rejects.
   */
  commit(turn: SessionTurn, assertLockHeld: () => Promise<void>): Promise<void> {
    return this.enqueue(async () => {
      if (this.failure !== undefined) {
        const failure = this.failure;
        await this.dropOpenTurn();
        throw failure;
      }
      try {
        await assertLockHeld();
      } catch (error) {
        this.lockLost = true;
        throw error;
      }
      try {
        const after = stateAfterCommit(this.state, turn, this.messageCount, new Date());
        const line = recordLine(commitRecord(this.turn, turn, after));
        await this.handle.write(line);
        this.bytes += Buffer.byteLength(line);
        await this.handle.sync();
        this.state = after;
        this.committedBytes = this.bytes;
        this.turn++;
      } catch (error) {
        await this.dropOpenTurn();
        throw error;
      }
    });
  }

  /** Cuts the file back to its last commit and forgets the open turn's failure. */
  async dropOpenTurn(): Promise<void> {
    this.failure = undefined;
    this.messageCount = this.state.messageCount;
    if (this.lockLost || this.bytes === this.committedBytes) return;
    await this.handle.truncate(this.committedBytes);
    this.bytes = this.committedBytes;
  }
}
