import type { ToolContext, ToolProgress } from '@agentloop/tools';
import { idempotencyKey } from '../journal/idempotency-key.js';

/** What the loop knows of one call, for its tool's context. */
export interface LoopToolContextInit {
  readonly signal: AbortSignal;
  readonly sessionId: string;
  readonly workspace: string;
  readonly runId: string;
  readonly iteration: number;
  readonly toolCallId: string;
  readonly reportProgress: (progress: ToolProgress) => void;
  /** The call's requests for the user's input and for model completions, when the agent answers them. */
  readonly elicit?: ToolContext['elicit'];
  readonly sample?: ToolContext['sample'];
}

/**
 * The context the loop hands `runToolCall` for one call. Its `idempotencyKey` is hashed when first read, so
 * that the calls of tools that never read it (most) cost no hash.
 */
export class LoopToolContext implements ToolContext {
  readonly signal: AbortSignal;
  readonly sessionId: string;
  readonly workspace: string;
  readonly toolCallId: string;
  readonly reportProgress: (progress: ToolProgress) => void;
  declare readonly elicit?: ToolContext['elicit'];
  declare readonly sample?: ToolContext['sample'];
  readonly #runId: string;
  readonly #iteration: number;
  #idempotencyKey: string | undefined;

  constructor(init: LoopToolContextInit) {
    this.signal = init.signal;
    this.sessionId = init.sessionId;
    this.workspace = init.workspace;
    this.toolCallId = init.toolCallId;
    this.reportProgress = init.reportProgress;
    this.#runId = init.runId;
    this.#iteration = init.iteration;
    // Absent, not undefined, when nothing answers them: a tool tells the two apart with `'elicit' in context`.
    if (init.elicit) (this as { elicit?: ToolContext['elicit'] }).elicit = init.elicit;
    if (init.sample) (this as { sample?: ToolContext['sample'] }).sample = init.sample;
  }

  get idempotencyKey(): string {
    this.#idempotencyKey ??= idempotencyKey({
      sessionId: this.sessionId,
      runId: this.#runId,
      iteration: this.#iteration,
      toolCallId: this.toolCallId,
    });
    return this.#idempotencyKey;
  }
}
