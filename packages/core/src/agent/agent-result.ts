import type { AgentloopError, Message, Usage } from '@agentloop/spec';
import type { LoopControlPayloadMap, TaskCompletionPayload } from '@agentloop/tools';

/**
 * The payload of the exit tool, by exit: the loop-control tools' payloads; for `max_iterations` the
 * model's `task_completion` of the wrap-up step (what was done, what remains), when it made one; nothing
 * for the other exits.
 */
export interface AgentExitPayloadMap extends LoopControlPayloadMap {
  max_iterations: TaskCompletionPayload | undefined;
  cancelled: undefined;
  error: undefined;
}

/** How a run ended: one of the loop-control tools, a limit, a cancel or an error. */
export type AgentExit = keyof AgentExitPayloadMap;

/** The exits that carry an `error`: the cancel (its reason as `cause`), or what failed. */
type ExitWithError = 'cancelled' | 'error';

/** How a run ended with `Exit`: the exit, its payload, and for a cancel or a failure the error. */
type AgentOutcomeOf<Exit extends AgentExit> = {
  exit: Exit;
  payload: AgentExitPayloadMap[Exit];
} & (Exit extends ExitWithError ? { error: AgentloopError } : { error?: undefined });

/** How a run ended, before the run's figures are added: what the loop decides, typed by exit. */
export type AgentOutcome = { [Exit in AgentExit]: AgentOutcomeOf<Exit> }[AgentExit];

/** The figures of a run, whatever ended it. */
export interface AgentRunFigures {
  /** Token usage of the whole run. */
  usage: Usage;
  /** How many model calls the run made. */
  iterations: number;
  /** The messages this run added to the conversation, the input first. */
  messages: Message[];
  /** Wall time of the run in milliseconds. */
  durationMs: number;
}

/**
 * What a run produced. Narrow on `exit` to get a typed `payload` (and, for `error` and `cancelled`,
 * `error`): `result.exit === 'task_completion'` gives `result.payload.result`.
 */
export type AgentResult = AgentOutcome & AgentRunFigures;
