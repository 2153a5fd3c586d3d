import type { ToolCallOutcome } from '@agentloop/tools';
import { type RecordedError, recordError, restoreError } from '../journal/recorded-error.js';

type ToolCallSuccess = Extract<ToolCallOutcome, { status: 'ok' }>;
type ToolCallFailure = Extract<ToolCallOutcome, { status: 'error' }>;

/**
 * A tool call as its journal step records it: the outcome (a failure too: a tool failure is a result, never
 * a failed step), with what was thrown as a RecordedError, and how long the call took. The tool's `value`
 * and validated arguments are recorded as JSON: a value that is not JSON comes back changed on replay.
 */
export interface RecordedToolCall {
  outcome: ToolCallSuccess | (Omit<ToolCallFailure, 'error'> & { error?: RecordedError });
  durationMs: number;
}

/** The call as its step records it. */
export function recordToolCall(outcome: ToolCallOutcome, durationMs: number): RecordedToolCall {
  if (outcome.status === 'ok') return { outcome, durationMs };
  const { error, ...failure } = outcome;
  return { outcome: error === undefined ? failure : { ...failure, error: recordError(error) }, durationMs };
}

/** The recorded call, for a replayed run. */
export function restoreToolCall(recorded: RecordedToolCall): { outcome: ToolCallOutcome; durationMs: number } {
  const { outcome, durationMs } = recorded;
  if (outcome.status === 'ok' || outcome.error === undefined) return { outcome, durationMs };
  return { outcome: { ...outcome, error: restoreError(outcome.error) }, durationMs };
}
