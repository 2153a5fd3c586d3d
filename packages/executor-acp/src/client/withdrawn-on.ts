import type { SendRequestOptions } from '@agentclientprotocol/sdk';

/**
 * Request options that withdraw a request to the editor when `signal` aborts (`$/cancel_request`) and stop
 * waiting for its answer at once, so that a cancelled call never waits on an editor that does not answer.
 */
export function withdrawnOn(signal: AbortSignal): SendRequestOptions {
  return { cancellationSignal: signal, stopWaitingOnCancel: true };
}
