import { createHash } from 'node:crypto';

/** What names one tool call of one run. */
export interface ToolCallIdentity {
  readonly sessionId: string;
  readonly runId: string;
  /** The model call whose response made the call: a server may reuse a call id in a later response. */
  readonly iteration: number;
  readonly toolCallId: string;
}

/**
 * The tool call's `ToolContext.idempotencyKey`: the SHA-256, in hex, of its session id, run id, iteration
 * and tool-call id. Hashed so that a tool may pass it to a service with a length or alphabet limit on keys,
 * and so that it reveals none of the ids; the parts are joined with a NUL, which none of them can hold
 * ambiguously.
 */
export function idempotencyKey(call: ToolCallIdentity): string {
  return createHash('sha256')
    .update(`${call.sessionId}\u0000${call.runId}\u0000${call.iteration}\u0000${call.toolCallId}`)
    .digest('hex');
}
