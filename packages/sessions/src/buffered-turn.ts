import type { Message } from '@agentloop/spec';
import { savedJson } from './records/message-json.js';

/** What a turn's commit writes: the messages as saved JSON. */
export interface TurnToWrite {
  /** Set when the turn replaced the conversation: the new one. */
  readonly replaced: string[] | undefined;
  /** The messages the turn added (after `replaced`, when set). */
  readonly added: string[];
}

/**
 * The open turn of a session that a database store (SQLite, PostgreSQL) keeps in memory until its commit
 * writes it in one transaction. Its first failure (a message JSON cannot hold) fails every later call of
 * the turn and its commit, and the turn is dropped: a turn is saved whole or not at all.
 */
export class BufferedTurn {
  #replaced: string[] | undefined;
  #added: string[] = [];
  #failure: unknown;

  /** Adds a message to the turn; throws the turn's first failure, or this message's. */
  append(message: Message): void {
    this.#buffer(() => this.#added.push(savedJson(message)));
  }

  /** Replaces the conversation with `messages`, dropping what the turn added so far. */
  replace(messages: readonly Message[]): void {
    this.#buffer(() => {
      this.#replaced = messages.map(savedJson);
      this.#added = [];
    });
  }

  /** Forgets the turn, its failure too: the session starts again from its last commit. */
  drop(): void {
    this.#replaced = undefined;
    this.#added = [];
    this.#failure = undefined;
  }

  /**
   * Ends the turn and gives what its commit writes, or throws its first failure. Whatever happens, the
   * turn is over: a failed one is dropped, not written again with the next.
   */
  take(): TurnToWrite {
    const turn = { replaced: this.#replaced, added: this.#added };
    const failure = this.#failure;
    this.drop();
    if (failure !== undefined) throw failure;
    return turn;
  }

  #buffer(add: () => void): void {
    if (this.#failure !== undefined) throw this.#failure;
    try {
      add();
    } catch (error) {
      this.#failure = error;
      throw error;
    }
  }
}
