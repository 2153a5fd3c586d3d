import type { AgentEvent, AgentEventBus } from '../events/index.js';

/**
 * Turns a run into an async iterable of its events. The run starts at the first `next()`. Events are
 * buffered, so a slow consumer misses nothing; a consumer that stops early cancels the run.
 */
export async function* eventStream(
  events: AgentEventBus,
  start: () => Promise<unknown>,
  cancel: () => void,
): AsyncGenerator<AgentEvent> {
  const buffer: AgentEvent[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  const stop = events.onAny((event) => {
    buffer.push(event);
    wake?.();
  });
  const running = start().finally(() => {
    ended = true;
    wake?.();
  });
  let sawEnd = false;
  try {
    while (true) {
      // Take what is buffered so far, so that yielded events are not kept for the whole run.
      for (const event of buffer.splice(0)) {
        yield event;
        if (event.type === 'loop-end') {
          sawEnd = true;
          return;
        }
      }
      // Events a listener caused while the consumer had the last one come before the end.
      if (buffer.length > 0) continue;
      if (ended) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
    await running;
  } finally {
    stop();
    if (!sawEnd && !ended) cancel();
    await running.catch(() => undefined);
  }
}
