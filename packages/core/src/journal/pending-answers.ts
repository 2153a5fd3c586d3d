/** Options of `PendingAnswers.wait`. */
export interface PendingAnswerOptions {
  /** Aborted when the run is cancelled: the wait then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Sees the answer before the wait resolves with it (a journal that records answers records it here). */
  readonly onAnswer?: (value: unknown) => void;
}

/**
 * The answers this process waits for, by request id: the in-process half of `Journal.awaitAnswer` and
 * `Journal.answer`, which DirectJournal and MemoryJournal share. A wait is taken before `onRequest` runs,
 * so an answer given while the request is announced is not lost; an answered or aborted wait is
 * forgotten, so a late answer finds nothing.
 */
export class PendingAnswers {
  readonly #waiting = new Map<string, (value: unknown) => void>();

  /**
   * Waits under `requestId`, then calls `onRequest`; resolves with the value `answer` delivers, or rejects
   * with the signal's reason when it aborts (at once after `onRequest` when it already has).
   */
  wait<T>(requestId: string, onRequest: () => void, options: PendingAnswerOptions = {}): Promise<T> {
    const { signal, onAnswer } = options;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        this.#waiting.delete(requestId);
        reject(signal?.reason);
      };
      this.#waiting.set(requestId, (value) => {
        this.#waiting.delete(requestId);
        signal?.removeEventListener('abort', onAbort);
        onAnswer?.(value);
        resolve(value as T);
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      onRequest();
      if (signal?.aborted) onAbort();
    });
  }

  /** Delivers an answer to the wait under `requestId`; false when nothing waits under it. */
  answer(requestId: string, value: unknown): boolean {
    const settle = this.#waiting.get(requestId);
    if (!settle) return false;
    settle(value);
    return true;
  }
}
