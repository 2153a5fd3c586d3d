import type { AgentEvent, AgentResult, Message } from '@agentloop/core';

/**
 * How a run ended: with the agent's result and the whole conversation as the run left it, or with an
 * error before the loop could start (no `loop-end` then).
 */
export type RunEnd =
  | { result: AgentResult<unknown>; messages: readonly Message[]; error?: undefined }
  | { result?: undefined; messages?: undefined; error: unknown };

/**
 * Receives a run's events. A protocol route attaches one per response and turns the events into its wire
 * format; `onEnd` comes once, after the last event (the agent's `loop-end`, when the loop ran).
 */
export interface RunListener {
  onEvent(event: AgentEvent): void;
  onEnd(end: RunEnd): void;
}

/** Why a listener detaches: its response ended on purpose (`done`), or the client went away (`dropped`). */
export type DetachReason = 'done' | 'dropped';
