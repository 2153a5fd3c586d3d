import type { LLMProvider, ModelSettings } from '@agentloop/spec';

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
  /**
   * False: the model is asked for one call per response, and a response's calls run one by one. Absent:
   * what the model can do (`capabilities.parallelToolCalls`, from the model table), read per run, so that
   * a model switched to mid-session is asked as it should be (see parallelToolCallsFor).
   */
  readonly parallelToolCalls?: boolean;
  /** The longest tool result sent to the model, in characters. */
  readonly maxToolResultChars: number;
  /** How long a tool call may run unless its tool sets its own `timeoutMs`, in milliseconds; 0: no limit. */
  readonly toolTimeoutMs: number;
  /** Sampling settings passed to every model call. */
  readonly settings?: ModelSettings;
}

/**
 * Whether a run on `provider` asks for several tool calls per response and runs them at once: the
 * `parallelToolCalls` option, else what the provider's model can do. A model that cannot (a local model
 * the table does not know, say) sends its calls one per response anyway, and is not asked for more.
 */
export function parallelToolCallsFor(
  settings: Pick<LoopSettings, 'parallelToolCalls'>,
  provider: LLMProvider,
): boolean {
  return settings.parallelToolCalls ?? provider.capabilities.parallelToolCalls;
}
