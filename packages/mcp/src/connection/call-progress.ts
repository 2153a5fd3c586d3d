import type { ToolContext } from '@agentloop/tools';
import type { Progress, ProgressNotification } from '@modelcontextprotocol/sdk/types.js';

/**
 * The progress of a connection's calls in flight: each call gets its own progress token, and the
 * server's `notifications/progress` for that token reach the call's `reportProgress`.
 *
 * Our own tokens, not the SDK's `onprogress`: the SDK drops its handler when the response arrives,
 * before it dispatches the notifications that came in the same read (one microtask later), so the last
 * steps of a fast call were lost. An entry here outlives the response by those microtasks.
 */
export class CallProgress {
  /** The progress callback of each call in flight, by the progress token sent with it. */
  readonly #listeners = new Map<string, (progress: Progress) => void>();
  #nextToken = 0;

  /** Opens a token for one call, reporting to its context; `close` it when the call settles. */
  open(context: ToolContext): string {
    const token = `agentloop-${++this.#nextToken}`;
    this.#listeners.set(token, ({ progress, total, message }) =>
      context.reportProgress({
        message: message ?? (total ? `${progress} of ${total}` : String(progress)),
        ...(total ? { fraction: Math.min(1, progress / total) } : {}),
      }),
    );
    return token;
  }

  /** Forgets a call's token: later notifications for it are dropped. */
  close(token: string): void {
    this.#listeners.delete(token);
  }

  /** Hands a `notifications/progress` to the call whose token it names; drops one for no call in flight. */
  notify({ progressToken, ...progress }: ProgressNotification['params']): void {
    this.#listeners.get(String(progressToken))?.(progress);
  }
}
