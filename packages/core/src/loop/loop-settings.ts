import type { ModelSettings } from '@agentloop/spec';

/**
 * What the last model call a run allows is for: `wrap-up` tells the model that it is its last step and
 * offers only the loop-control tools, so that it ends with a `task_completion` saying what was done and
 * what remains; `stop` makes it an ordinary step, after which the run stops.
 */
export type OnMaxIterations = 'wrap-up' | 'stop';

/**
 * The settings the loop reads, under the names of the agent's options, checked and with their defaults
 * filled in once, when the agent is made: a setting has one name and one default from the options (and
 * the CLI's configuration) down to the tool call, so that none is dropped or renamed on the way.
 */
export interface LoopSettings {
  /** Model calls per run before it ends with `max_iterations`. */
  readonly maxIterations: number;
  /** How the run meets `maxIterations`: a wrap-up step before the last call, or a plain stop after it. */
  readonly onMaxIterations: OnMaxIterations;
  /** The most tool calls of one response running at once. */
  readonly maxParallelTools: number;
  /** False: the model is asked for one call per response, and a response's calls run one by one. */
  readonly parallelToolCalls: boolean;
  /** The longest tool result sent to the model, in characters. */
  readonly maxToolResultChars: number;
  /** How long a tool call may run unless its tool sets its own `timeoutMs`, in milliseconds; 0: no limit. */
  readonly toolTimeoutMs: number;
  /** Sampling settings passed to every model call. */
  readonly settings?: ModelSettings;
}
