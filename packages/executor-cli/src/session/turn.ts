import type { Agent, AgentResult } from '@agentloop/core';
import type { EventRendererOptions, TerminalOutput } from '../render/index.js';
import { EventRenderer } from '../render/index.js';
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

/**
 * One run of the agent in the session: renders its events, lets the keyboard queue input for the agent
 * and cancel it. The first `interrupt()` cancels the run, a second one ends the turn at once (for a tool
 * that ignores its abort signal).
 */
export class Turn {
  #interrupts = 0;
  #force: (() => void) | undefined;
  readonly renderer: EventRenderer;

  constructor(
    private readonly agent: Agent,
    private readonly output: TerminalOutput,
    private readonly keyboardInput: TerminalInput,
    renderOptions: EventRendererOptions,
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
    const stopRendering = this.agent.onAny((event) => {
      if (event.type === 'input-queued') queued++;
      if (event.type === 'input-delivered') delivered++;
      this.renderer.handle(event);
    });
    const keyboard = new RunKeyboard(this.keyboardInput, {
      onInterrupt: () => this.interrupt(),
      onLine: (text) => this.agent.send(text),
    });
    const forced = new Promise<undefined>((resolve) => {
      this.#force = () => resolve(undefined);
    });
    keyboard.start();
    try {
      const result = await Promise.race([this.agent.run(input), forced]);
      return { ...(result ? { result } : {}), undelivered: Math.max(0, queued - delivered), leftover: keyboard.stop() };
    } finally {
      keyboard.stop();
      stopRendering();
      this.renderer.stop();
      if (this.#interrupts > 1) this.output.write('\n');
    }
  }
}
