import type { Agent, AgentEventMap } from '@agentloop/core';
import type { ElicitationPrompter } from '../elicitation/index.js';
import type { Style } from '../render/index.js';
import type { CommandConfinement } from './approval-control.js';
import type { ApprovalPrompter } from './approval-prompter.js';
import { approvalScreen } from './approval-screen.js';
import type { ChangePreviewOptions } from './change-preview.js';
import { previewChange } from './change-preview.js';

type ApprovalRequested = AgentEventMap['approval-requested'];
type ElicitationRequested = AgentEventMap['elicitation-requested'];

/** What an ApprovalDesk needs from the turn it serves. */
export interface ApprovalDeskOptions {
  agent: Agent;
  prompter: ApprovalPrompter;
  /** Asks a tool's elicitation (its form, or a page to open); absent, the desk is not given any. */
  elicit?: ElicitationPrompter | undefined;
  preview: ChangePreviewOptions;
  style: Style;
  width: number;
  /** How commands run (sandboxed or not), shown on a command's screen; undefined when not known. */
  confinement?: CommandConfinement | undefined;
  /** Takes the screen for a request: stops the spinner, holds the run's other output, pauses the keyboard. */
  hold(): void;
  /** Gives the screen back once no request waits. */
  release(): void;
  /** Ctrl-C at a request: cancels the turn (the run refuses the waiting calls and ends as cancelled). */
  interrupt(): void;
}

/**
 * Answers a turn's approval requests on the terminal, one at a time and in the order they came (calls of
 * one step run at once, so several can wait together): each gets its screen (the diff or the command) and
 * the user's answer goes to `agent.answerApproval`. Ctrl-C cancels the turn; a request its run refused
 * meanwhile (a cancel) closes its screen.
 */
export class ApprovalDesk {
  readonly #options: ApprovalDeskOptions;
  readonly #queue: (ApprovalRequested | ElicitationRequested)[] = [];
  #current: { requestId: string; abort: AbortController } | undefined;
  #working = false;
  #closed = false;

  constructor(options: ApprovalDeskOptions) {
    this.#options = options;
  }

  /**
   * An `approval-requested` or `elicitation-requested` event: asked now, or after the requests before it
   * (one screen at a time, whatever its kind).
   */
  request(event: ApprovalRequested | ElicitationRequested): void {
    if (this.#closed) return;
    this.#queue.push(event);
    if (!this.#working) void this.#work();
  }

  /**
   * An `approval-resolved` or `elicitation-resolved` event: a request ended by a cancel (of the run, or
   * of the tool's request) is dropped, its screen closed.
   */
  resolved(event: AgentEventMap['approval-resolved'] | AgentEventMap['elicitation-resolved']): void {
    if (event.type === 'approval-resolved' ? event.decision !== 'cancelled' : event.action !== 'cancel') return;
    const index = this.#queue.findIndex((queued) => queued.requestId === event.requestId);
    if (index !== -1) this.#queue.splice(index, 1);
    if (this.#current?.requestId === event.requestId) this.#current.abort.abort();
  }

  /** Closes the desk at the end of the turn: a screen still open is closed, nothing more is asked. */
  close(): void {
    this.#closed = true;
    this.#queue.length = 0;
    this.#current?.abort.abort();
  }

  async #work(): Promise<void> {
    this.#working = true;
    this.#options.hold();
    try {
      for (let event = this.#queue.shift(); event && !this.#closed; event = this.#queue.shift()) {
        await (event.type === 'elicitation-requested' ? this.#elicit(event) : this.#ask(event));
      }
    } finally {
      this.#working = false;
      this.#options.release();
    }
  }

  async #elicit(event: ElicitationRequested): Promise<void> {
    const { agent, elicit } = this.#options;
    const abort = new AbortController();
    this.#current = { requestId: event.requestId, abort };
    try {
      let answer: Awaited<ReturnType<ElicitationPrompter>>;
      try {
        answer = elicit ? await elicit(event, abort.signal) : { action: 'decline' };
      } catch {
        // The form could not be shown (a terminal write failed): the request is declined, never left waiting.
        answer = { action: 'decline' };
      }
      if (answer === 'cancelled') return;
      if (answer === 'interrupt') {
        this.close();
        this.#options.interrupt();
        return;
      }
      try {
        agent.answerElicitation?.(event.requestId, answer);
      } catch {
        // The call ended meanwhile (a cancel): the request has no one waiting for it.
      }
    } finally {
      this.#current = undefined;
    }
  }

  async #ask(event: ApprovalRequested): Promise<void> {
    const { agent, prompter, style, width } = this.#options;
    const abort = new AbortController();
    this.#current = { requestId: event.requestId, abort };
    try {
      let answer: Awaited<ReturnType<typeof prompter>>;
      try {
        // A sampling request changes no file: what it would send to the model is its preview.
        const preview =
          event.kind === 'sampling'
            ? { kind: 'arguments' as const }
            : await previewChange(event, this.#options.preview);
        if (abort.signal.aborted) return;
        const screen = approvalScreen(event, preview, style, width, this.#options.confinement);
        answer = await prompter(screen, abort.signal);
      } catch (error) {
        // The screen could not be shown (a terminal write failed): the call is refused, never left waiting.
        answer = {
          decision: 'deny',
          message: `The approval screen failed (${error instanceof Error ? error.message : String(error)}), so the call was not approved.`,
        };
      }
      if (answer === 'cancelled') return;
      if (answer === 'interrupt') {
        this.close();
        this.#options.interrupt();
        return;
      }
      try {
        agent.answerApproval(event.requestId, answer);
      } catch {
        // The run ended meanwhile (a cancel): the request has no one waiting for it.
      }
    } finally {
      this.#current = undefined;
    }
  }
}
