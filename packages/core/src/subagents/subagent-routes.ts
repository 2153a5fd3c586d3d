import { AgentloopError } from '@agentloop/spec';
import type { ElicitationResult } from '@agentloop/tools';
import type { ApprovalAnswer } from '../approvals/index.js';

/**
 * Where an agent sends the answers meant for its sub-agents: a child's approval request or question
 * reaches the parent's executor under an id of the parent's, and the answer given with that id goes back
 * down to the child that waits for it. Kept by the agent, so that its `answerApproval` and
 * `answerQuestion` find them.
 */
export class SubagentRoutes {
  readonly #approvals = new Map<string, (answer: ApprovalAnswer) => void>();
  readonly #questions = new Map<string, (answer: string) => void>();
  readonly #elicitations = new Map<string, (result: ElicitationResult) => void>();

  addApproval(requestId: string, answer: (answer: ApprovalAnswer) => void): void {
    this.#approvals.set(requestId, answer);
  }

  addQuestion(requestId: string, answer: (answer: string) => void): void {
    this.#questions.set(requestId, answer);
  }

  addElicitation(requestId: string, answer: (result: ElicitationResult) => void): void {
    this.#elicitations.set(requestId, answer);
  }

  /** Forgets a route: its request was answered or dropped. */
  delete(requestId: string): void {
    this.#approvals.delete(requestId);
    this.#questions.delete(requestId);
    this.#elicitations.delete(requestId);
  }

  /** Forgets every route below one call (`prefix` ends with `/`): the call ended. */
  deleteUnder(prefix: string): void {
    for (const routes of [this.#approvals, this.#questions, this.#elicitations]) {
      for (const requestId of routes.keys()) if (requestId.startsWith(prefix)) routes.delete(requestId);
    }
  }

  /**
   * Sends an approval answer down; false when no sub-agent waits for `requestId`. Throws what the
   * sub-agent throws for an answer it refuses, and keeps the route.
   */
  answerApproval(requestId: string, answer: ApprovalAnswer): boolean {
    const route = this.#approvals.get(requestId);
    if (!route) return false;
    deliver(this.#approvals, requestId, () => route(answer));
    return true;
  }

  /** Sends a question's answer down; false when no sub-agent waits for `requestId`. Throws as `answerApproval`. */
  answerQuestion(requestId: string, answer: string): boolean {
    const route = this.#questions.get(requestId);
    if (!route) return false;
    deliver(this.#questions, requestId, () => route(answer));
    return true;
  }

  /** Sends an elicitation's answer down; false when no sub-agent waits for `requestId`. Throws as `answerApproval`. */
  answerElicitation(requestId: string, result: ElicitationResult): boolean {
    const route = this.#elicitations.get(requestId);
    if (!route) return false;
    deliver(this.#elicitations, requestId, () => route(result));
    return true;
  }
}

/**
 * Passes an answer down and forgets its route only once the sub-agent took it: a sub-agent that refuses the
 * answer (an empty required field, say) throws, and its request must stay answerable for a corrected one.
 * A sub-agent that no longer waits (its request ended just now) has no use for the route either.
 */
function deliver(routes: Map<string, unknown>, requestId: string, send: () => void): void {
  try {
    send();
  } catch (error) {
    if (AgentloopError.isInstance(error) && error.code.startsWith('unknown_')) routes.delete(requestId);
    throw error;
  }
  routes.delete(requestId);
}
