import { AgentloopError } from './agentloop-error.js';

/** A run or a model call was cancelled (an AbortSignal, `agent.cancel()`); its reason is the `cause`. */
export class CancelledError extends AgentloopError<'cancelled'> {
  constructor(message = 'The run was cancelled.', cause?: unknown) {
    super(message, { code: 'cancelled', cause });
  }
}
