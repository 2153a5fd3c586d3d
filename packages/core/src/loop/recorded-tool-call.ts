import type { ToolCallOutcome } from '@agentloop/tools';
import { type RecordedError, recordError, restoreError } from '../journal/recorded-error.js';
import type { SamplingSpend } from '../requests/sampling-spend.js';
import type { RunMetrics } from '../tokens/run-metrics.js';

type ToolCallSuccess = Extract<ToolCallOutcome, { status: 'ok' }>;
type ToolCallFailure = Extract<ToolCallOutcome, { status: 'error' }>;

/** One call as it ran: its outcome, how long it took, and the figures of an agent it ran as a tool. */
export interface ToolCallRun {
  outcome: ToolCallOutcome;
  durationMs: number;
  /** The runs of the sub-agent the call was, if it was one. */
  subagentMetrics?: RunMetrics[];
  /** What the call's sampling requests spent, if it made any. */
  samplingSpent?: SamplingSpend[];
}

/**
 * A tool call as its journal step records it: the outcome (a failure too: a tool failure is a result, never
 * a failed step), with what was thrown as a RecordedError, and how long the call took. The tool's `value`
 * and validated arguments are recorded as JSON: a value that is not JSON comes back changed on replay.
 */
export interface RecordedToolCall {
  outcome: ToolCallSuccess | (Omit<ToolCallFailure, 'error'> & { error?: RecordedError });
  durationMs: number;
  subagentMetrics?: RunMetrics[];
  samplingSpent?: SamplingSpend[];
}

/** The call as its step records it. */
export function recordToolCall(ran: ToolCallRun): RecordedToolCall {
  const { outcome, ...rest } = ran;
  if (outcome.status === 'ok') return { outcome, ...rest };
  const { error, ...failure } = outcome;
  return { outcome: error === undefined ? failure : { ...failure, error: recordError(error) }, ...rest };
}

/** The recorded call, for a replayed run. */
export function restoreToolCall(recorded: RecordedToolCall): ToolCallRun {
  const { outcome, ...rest } = recorded;
  if (outcome.status === 'ok' || outcome.error === undefined) return { outcome, ...rest };
  return { outcome: { ...outcome, error: restoreError(outcome.error) }, ...rest };
}
