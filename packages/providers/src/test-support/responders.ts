import type { Responder } from './fixture-server.js';

/** How a scripted stream misbehaves after its first `after` frames. */
export interface StreamFault {
  after: number;
  /** `reset`: TCP reset; `close`: a clean end without the rest; `stall`: keep the connection open, silent. */
  kind: 'reset' | 'close' | 'stall';
}

/** Answers with a JSON body. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Responder {
  return (response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

/** Answers with SSE frames (each a complete `event:`/`data:` block ending in a blank line). */
export function sseResponse(
  frames: readonly string[],
  options: {
    headers?: Record<string, string>;
    fault?: StreamFault;
    /** Sends the last frame (and ends the body) this many ms after the others, as a real server may. */
    lastFrameDelayMs?: number;
  } = {},
): Responder {
  return async (response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...options.headers });
    const fault = options.fault;
    const count = fault ? Math.min(fault.after, frames.length) : frames.length;
    const delayLast = !fault && options.lastFrameDelayMs !== undefined && count > 0;
    for (let index = 0; index < (delayLast ? count - 1 : count); index++) response.write(frames[index]);
    if (delayLast) await new Promise((resolve) => setTimeout(resolve, options.lastFrameDelayMs));
    if (!fault) {
      response.end(delayLast ? frames[count - 1] : undefined);
      return;
    }
    // Let the frames reach the client before the fault.
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (fault.kind === 'reset') response.socket?.resetAndDestroy();
    else if (fault.kind === 'close') response.end();
  };
}

/** Answers with the status, headers and body of a recorded exchange. */
export function recordedResponse(exchange: RecordedExchange): Responder {
  return (response) => {
    const { status_code: status, headers, body } = exchange.response;
    const kept = Object.fromEntries(
      Object.entries(headers).filter(
        ([name]) => !['content-length', 'connection', 'transfer-encoding', 'content-encoding'].includes(name),
      ),
    );
    response.writeHead(status, kept);
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

/** One request/response pair as anthropic-sdk-python's inline snapshots store it. */
export interface RecordedExchange {
  request: { method: string; url: string; headers: Record<string, string>; body: unknown };
  response: { status_code: number; headers: Record<string, string>; body: unknown };
}
