import type { AgentloopError, Message, Usage } from '@agentloop/spec';
import type { LoopControlPayloadMap, TaskCompletionPayload } from '@agentloop/tools';
import type { RunMetrics } from '../tokens/run-metrics.js';

/**
 * The payload of the exit tool, by exit: the loop-control tools' payloads; for `max_iterations` the
 * model's `task_completion` of the wrap-up step (what was done, what remains, as text), when it made one;
 * nothing for the other exits. `Result` is the type of `task_completion`'s result: text, or the type of
 * the run's `output` schema.
 */
export interface AgentExitPayloadMap<Result = string> extends LoopControlPayloadMap<Result> {
  max_iterations: TaskCompletionPayload | undefined;
  cancelled: undefined;
  error: undefined;
}

/** How a run ended: one of the loop-control tools, a limit, a cancel or an error. */
export type AgentExit = keyof AgentExitPayloadMap;

/** The exits that carry an `error`: the cancel (its reason as `cause`), or what failed. */
type ExitWithError = 'cancelled' | 'error';

/** How a run ended with `Exit`: the exit, its payload, and for a cancel or a failure the error. */
type AgentOutcomeOf<Exit extends AgentExit, Result> = {
  exit: Exit;
  payload: AgentExitPayloadMap<Result>[Exit];
} & (Exit extends ExitWithError ? { error: AgentloopError } : { error?: undefined });

/** How a run ended, before the run's figures are added: what the loop decides, typed by exit. */
export type AgentOutcome<Result = string> = { [Exit in AgentExit]: AgentOutcomeOf<Exit, Result> }[AgentExit];

/** The figures of a run, whatever ended it. */
export interface AgentRunFigures {
  /** Token usage of the whole run: its model calls and its compactions' summaries. */
  usage: Usage;
  /** How many model calls the run made. */
  iterations: number;
  /**
   * The messages this run added to the conversation, the input first; after a compaction during the run,
   * only those the compaction kept (its summary stands for the others).
   */
  messages: Message[];
  /** Wall time of the run in milliseconds. */
  durationMs: number;
  /**
   * What the run did and spent: tokens by kind, model and tool calls and their time, retries,
   * compactions, how full the context ended, and the cost where the models have prices.
   */
  metrics: RunMetrics;
}

/**
 * What a run produced. Narrow on `exit` to get a typed `payload` (and, for `error` and `cancelled`,
 * `error`): `result.exit === 'task_completion'` gives `result.payload.result`, text or, for a run with an
 * `output` schema, a `Result` of that schema.
 */
export type AgentResult<Result = string> = AgentOutcome<Result> & AgentRunFigures;
