import { vi } from 'vitest';

/**
 * A `fetch` that answers every request with these SSE frames, handing out one each time the client reads
 * the body, after moving the faked clock on by `gapMs`. The client then sees `gapMs` of silence before
 * each frame on its own clock, exactly, however loaded the machine is: a server on a socket cannot pace
 * its frames against a faked clock. The test fakes `setTimeout`, `clearTimeout` and `Date`.
 */
export function pacedFetch(frames: readonly string[], gapMs: number): typeof fetch {
  return async () => {
    const encoder = new TextEncoder();
    let index = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          vi.advanceTimersByTime(gapMs);
          const frame = frames[index++];
          if (frame === undefined) controller.close();
          else controller.enqueue(encoder.encode(frame));
        },
      },
      // Nothing is read ahead: a frame is made only when the client asks for one.
      { highWaterMark: 0 },
    );
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}
