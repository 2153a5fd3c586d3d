import type { Message } from '@agentloop/spec';
import { AgentloopError, findHistoryProblem } from '@agentloop/spec';

/**
 * Checks, before each request leaves, that the history is one every provider accepts (see
 * `findHistoryProblem`). The loop keeps this true by construction; a violation is a bug (in agentloop, or
 * in a memory given to the agent) and is reported as one here, rather than as an API error three layers
 * away. Incremental: while the history only grows, messages already checked are not walked again.
 */
export class HistoryCheck {
  #checkedCount = 0;
  #first: Message | undefined;
  #lastChecked: Message | undefined;

  /** Throws an `invalid_history` AgentloopError that says what is wrong. */
  assertValid(messages: readonly Message[]): void {
    // A memory that rewrote its list (a restore, a compaction) is checked again from the start. Messages
    // changed in place are not noticed: the Memory contract says they do not change once appended.
    const grewOnly =
      this.#checkedCount <= messages.length &&
      messages[0] === this.#first &&
      messages[this.#checkedCount - 1] === this.#lastChecked;
    const problem = findHistoryProblem(messages, { from: grewOnly ? this.#checkedCount : 0 });
    if (problem) throw invalidHistory(problem);
    this.#checkedCount = messages.length;
    this.#first = messages[0];
    this.#lastChecked = messages.at(-1);
  }
}

function invalidHistory(problem: string): AgentloopError {
  return new AgentloopError(
    `The conversation history cannot be sent: ${problem}. Every provider would reject it, so the request ` +
      'was not sent. This is a bug in agentloop, or in the memory given to the agent: please report it with ' +
      'this message.',
    { code: 'invalid_history' },
  );
}
