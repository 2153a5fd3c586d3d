import { CancelledError } from '@agentloop/spec';

/** Waits `ms` milliseconds; rejects with a CancelledError as soon as `signal` aborts. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** The real, timer-based Sleep. */
export const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(new CancelledError(undefined, signal.reason));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new CancelledError(undefined, signal.reason));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
