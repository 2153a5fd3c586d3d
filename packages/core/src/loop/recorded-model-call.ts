import { type RecordedError, recordError, restoreError } from '../journal/recorded-error.js';
import type { ModelStep, ToolProtocolAdapter } from './tool-protocol.js';

/** One attempt at a model call: the step collected, whether it finished, and what it failed with. */
export interface ModelAttempt {
  step: ModelStep;
  finished: boolean;
  failure: { error: unknown } | undefined;
  /** The retries the provider's own policy made inside the call. */
  retries: number;
  /** How long the call took, in milliseconds. */
  durationMs: number;
}

/**
 * A model call as its journal step records it: everything the loop reads of the call afterwards, as JSON.
 * The protocol is not recorded: the loop resolves it before the call, the same way on replay.
 */
export interface RecordedModelCall {
  step: Omit<ModelStep, 'protocol'>;
  finished: boolean;
  failure?: RecordedError;
  retries: number;
  durationMs: number;
}

/** The attempt as its step records it. */
export function recordModelCall(attempt: ModelAttempt): RecordedModelCall {
  const { protocol: _, ...step } = attempt.step;
  return {
    step,
    finished: attempt.finished,
    ...(attempt.failure ? { failure: recordError(attempt.failure.error) } : {}),
    retries: attempt.retries,
    durationMs: attempt.durationMs,
  };
}

/** The recorded attempt, for a replayed run: its failure an error again, its protocol the run's. */
export function restoreModelCall(recorded: RecordedModelCall, protocol: ToolProtocolAdapter): ModelAttempt {
  return {
    step: { ...recorded.step, protocol },
    finished: recorded.finished,
    failure: recorded.failure ? { error: restoreError(recorded.failure) } : undefined,
    retries: recorded.retries,
    durationMs: recorded.durationMs,
  };
}
