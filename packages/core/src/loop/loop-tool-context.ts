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
