import type { Agent, AgentEvent, AgentEventMap, AgentResult } from '@agentloop/core';
import type { ApprovalPrompter, ChangePreviewOptions, CommandConfinement } from '../approval/index.js';
import { ApprovalDesk } from '../approval/index.js';
import type { ElicitationPrompter } from '../elicitation/index.js';
import type { EventRendererOptions, TerminalOutput } from '../render/index.js';
import { EventRenderer } from '../render/index.js';
import type { QuestionPrompter } from './ask-question.js';
import type { TerminalInput } from './line-reader.js';
import { RunKeyboard } from './run-keyboard.js';

/** How a turn ended: with the run's result, or forced (a second Ctrl-C while the run would not stop). */
export interface TurnOutcome {
  /** The run's result; undefined when the turn was forced to end. */
  result?: AgentResult;
  /** Input queued with `agent.send` that the run ended before delivering. */
  undelivered: number;
  /** Text typed but not sent when the turn ended. */
  leftover: string;
}

/** How a turn asks for approvals: the screen, and where the files of a diff are read. */
export interface TurnApprovals {
  prompter: ApprovalPrompter;
  preview: ChangePreviewOptions;
  /** How commands run (sandboxed or not), for a command's screen. */
  confinement?: CommandConfinement | undefined;
  /**
   * Asks tools' elicitations (an MCP server's form or page); absent where no one can answer, and the agent
   * then declines them.
   */
  elicit?: ElicitationPrompter | undefined;
}

/**
 * One run of the agent in the session: renders its events, lets the keyboard queue input for the agent
 * and cancel it, and asks the user about the calls that need approval (see ApprovalDesk); while a request
 * is on the screen, the run's other output waits and the keyboard is the request's. The first
 * `interrupt()` cancels the run, a second one ends the turn at once (for a tool that ignores its abort
 * signal).
 */
export class Turn {
  #interrupts = 0;
  #force: (() => void) | undefined;
  readonly renderer: EventRenderer;

  constructor(
    private readonly agent: Agent,
    private readonly output: TerminalOutput,
    private readonly keyboardInput: TerminalInput,
    private readonly renderOptions: EventRendererOptions,
    private readonly approvals?: TurnApprovals,
    /** Asks the user a sub-agent's question; absent, such a question fails the sub-agent's call. */
    private readonly askQuestion?: QuestionPrompter,
  ) {
    this.renderer = new EventRenderer(output, renderOptions);
  }

  /** Ctrl-C: cancels the run; a second time, ends the turn without waiting. */
  interrupt(): void {
    this.#interrupts++;
    if (this.#interrupts === 1) this.agent.cancel('cancelled with Ctrl-C');
    else this.#force?.();
  }

  /** Runs the agent on the input. */
  async run(input: string): Promise<TurnOutcome> {
    let queued = 0;
    let delivered = 0;
    // Held while an approval request is on the screen: a line written now would cut through it.
    let held: AgentEvent[] | undefined;
    const stopRendering = this.agent.onAny((event) => {
      if (event.type === 'input-queued') queued++;
      if (event.type === 'input-delivered') delivered++;
      if (event.type === 'subagent-event') this.#subagentApproval(event, desk);
      if (held) held.push(event);
      else this.renderer.handle(event);
    });
    const keyboard = new RunKeyboard(this.keyboardInput, {
      onInterrupt: () => this.interrupt(),
      onLine: (text) => this.agent.send(text),
    });
    const hold = () => {
      held ??= [];
      this.renderer.stop();
      keyboard.pause();
    };
    const release = () => {
      const events = held ?? [];
      held = undefined;
      for (const event of events) this.renderer.handle(event);
      keyboard.resume();
    };
    const desk = this.approvals
      ? new ApprovalDesk({
          agent: this.agent,
          ...this.approvals,
          style: this.renderOptions.style,
          width: this.renderOptions.width,
          hold,
          release,
          interrupt: () => this.interrupt(),
        })
      : undefined;
    const onQuestion = (event: AgentEventMap['subagent-question']) => void this.#ask(event, hold, release);
    const answersQuestions = this.askQuestion !== undefined && this.agent.answerQuestion !== undefined;
    if (answersQuestions) this.agent.on('subagent-question', onQuestion);
    const onRequested = (event: AgentEventMap['approval-requested']) => desk?.request(event);
    const onResolved = (event: AgentEventMap['approval-resolved']) => desk?.resolved(event);
    const onElicitation = (event: AgentEventMap['elicitation-requested']) => desk?.request(event);
    const onElicitationResolved = (event: AgentEventMap['elicitation-resolved']) => desk?.resolved(event);
    if (desk) {
      this.agent.on('approval-requested', onRequested);
      this.agent.on('approval-resolved', onResolved);
    }
    // Listened to only where someone can answer: with no listener the agent declines at once.
    const answersElicitations = desk !== undefined && this.approvals?.elicit !== undefined;
    if (answersElicitations) {
      this.agent.on('elicitation-requested', onElicitation);
      this.agent.on('elicitation-resolved', onElicitationResolved);
    }
    const forced = new Promise<undefined>((resolve) => {
      this.#force = () => resolve(undefined);
    });
    keyboard.start();
    try {
      const result = await Promise.race([this.agent.run(input), forced]);
      return { ...(result ? { result } : {}), undelivered: Math.max(0, queued - delivered), leftover: keyboard.stop() };
    } finally {
      desk?.close();
      this.agent.off('approval-requested', onRequested);
      this.agent.off('approval-resolved', onResolved);
      this.agent.off('elicitation-requested', onElicitation);
      this.agent.off('elicitation-resolved', onElicitationResolved);
      this.agent.off('subagent-question', onQuestion);
      keyboard.stop();
      stopRendering();
      this.renderer.stop();
      if (this.#interrupts > 1) this.output.write('\n');
    }
  }

  // A sub-agent's request comes wrapped, with an id of this agent's; its screen names the sub-agent.
  #subagentApproval(event: AgentEventMap['subagent-event'], desk: ApprovalDesk | undefined): void {
    const inner = event.event;
    if (inner.type === 'approval-resolved' || inner.type === 'elicitation-resolved') desk?.resolved(inner);
    // The sub-agent asks only when this agent answers elicitations (see Turn.run): then the desk can.
    if (inner.type === 'elicitation-requested' && this.approvals?.elicit) {
      const who = event.path.map((step) => step.toolName).join(' › ');
      desk?.request({ ...inner, name: `${who} › ${inner.name}` });
      return;
    }
    if (inner.type !== 'approval-requested') return;
    const who = event.path.map((step) => step.toolName).join(' › ');
    desk?.request({ ...inner, reason: `asked by the ${who} agent: ${inner.reason}` });
  }

  /** Asks the user a sub-agent's question, holding the run's output meanwhile; backing out says so to it. */
  async #ask(event: AgentEventMap['subagent-question'], hold: () => void, release: () => void): Promise<void> {
    const ask = this.askQuestion;
    if (!ask) return;
    hold();
    let answer: string | undefined;
    try {
      answer = await ask({
        question: event.question,
        ...(event.suggestions ? { suggestions: event.suggestions } : {}),
      });
    } catch {
      answer = undefined;
    } finally {
      release();
    }
    try {
      this.agent.answerQuestion?.(event.requestId, answer ?? 'The user chose not to answer this question.');
    } catch {
      // The call ended meanwhile (a cancel): no one waits for the answer.
    }
  }
}
