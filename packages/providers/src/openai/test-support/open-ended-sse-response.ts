import type { Responder } from '../../test-support/index.js';

/** An SSE answer that never ends on the server's side, and a promise of the client letting it go. */
export interface OpenEndedSseResponse {
  responder: Responder;
  /** Resolves once the client has closed the connection. */
  released: Promise<void>;
}

/**
 * Sends all the frames and then keeps the connection open, as a proxy may after the final event: only the
 * client can end the exchange, by cancelling the body.
 */
export function openEndedSseResponse(frames: readonly string[]): OpenEndedSseResponse {
  let release = (): void => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const responder: Responder = (response) => {
    response.on('close', release);
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const frame of frames) response.write(frame);
  };
  return { responder, released };
}
