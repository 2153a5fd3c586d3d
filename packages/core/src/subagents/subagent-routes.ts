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

  /** Sends an approval answer down; false when no sub-agent waits for `requestId`. */
  answerApproval(requestId: string, answer: ApprovalAnswer): boolean {
    const route = this.#approvals.get(requestId);
    if (!route) return false;
    this.#approvals.delete(requestId);
    route(answer);
    return true;
  }

  /** Sends a question's answer down; false when no sub-agent waits for `requestId`. */
  answerQuestion(requestId: string, answer: string): boolean {
    const route = this.#questions.get(requestId);
    if (!route) return false;
    this.#questions.delete(requestId);
    route(answer);
    return true;
  }

  /** Sends an elicitation's answer down; false when no sub-agent waits for `requestId`. */
  answerElicitation(requestId: string, result: ElicitationResult): boolean {
    const route = this.#elicitations.get(requestId);
    if (!route) return false;
    this.#elicitations.delete(requestId);
    route(result);
    return true;
  }
}
