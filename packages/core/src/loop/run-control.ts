import type { ModelSelection } from './model-selection.js';

/** What a run starts from. */
export interface RunControlInit {
  /** The agent's provider and tool protocol, shared: a switch during the run applies at the next call. */
  selection: ModelSelection;
  /** The agent's input queue, shared: what is queued after the run ends goes with the next run. */
  queuedInput: string[];
  signal: AbortSignal;
}

/**
 * The state of one run that both sides see while it goes on: the agent writes what the user changes
 * (provider, tool protocol, queued input) into the shared parts, the loop reads them at each model call
 * and records that the run has settled. One object the loop owns for the run's length, instead of
 * closures back into the agent.
 */
export class RunControl {
  readonly selection: ModelSelection;
  readonly signal: AbortSignal;
  /** True once the run's outcome is known, just before `loop-end`: a listener may start the next run. */
  settled = false;
  readonly #queuedInput: string[];

  constructor(init: RunControlInit) {
    this.selection = init.selection;
    this.#queuedInput = init.queuedInput;
    this.signal = init.signal;
  }

  /** Takes the input queued since the last model call. */
  takeQueuedInput(): string[] {
    return this.#queuedInput.splice(0);
  }
}
