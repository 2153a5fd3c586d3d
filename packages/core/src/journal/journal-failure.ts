import type { AwaitAnswerOptions, Journal } from './journal.js';

/**
 * A journal's own failure, as opposed to a failure of the effect it ran: the loop turns effects' failures
 * into results (a tool's error result, a run's `error` exit), but a journal that fails (a durable engine
 * that lost its connection, or found the replay off its record) must reach the engine as it is, so the run
 * passes it on: `agent.run` rejects with `cause`.
 */
export class JournalFailure extends Error {
  constructor(readonly failure: unknown) {
    super('The journal failed.', { cause: failure });
  }
}

/**
 * The journal, with its own rejections marked as JournalFailure. `awaitAnswer` rejecting because its signal
 * aborted is the run's cancel, not a failure, and passes as it is, and so does what a step's effect threw.
 */
export function guardedJournal(journal: Journal): Journal {
  const fail = (error: unknown): never => {
    throw new JournalFailure(error);
  };
  return {
    ...(journal.durable === undefined ? {} : { durable: journal.durable }),
    ...(journal.replaysInOrder === undefined ? {} : { replaysInOrder: journal.replaysInOrder }),
    step: <T>(name: string, run: () => Promise<T>) => {
      // What the effect itself threw is the loop's to handle, as it was before there was a journal.
      let thrown: { error: unknown } | undefined;
      const effect = (): Promise<T> =>
        run().catch((error: unknown): never => {
          thrown = { error };
          throw error;
        });
      return journal.step(name, effect).catch((error: unknown): never => {
        if (thrown && thrown.error === error) throw error;
        return fail(error);
      });
    },
    now: () => journal.now().catch(fail),
    randomId: () => journal.randomId(),
    awaitAnswer: <T>(requestId: string, onRequest: () => void, options?: AwaitAnswerOptions) =>
      journal.awaitAnswer<T>(requestId, onRequest, options).catch((error: unknown): never => {
        if (options?.signal?.aborted) throw error;
        return fail(error);
      }),
    answer: (requestId, value) => journal.answer(requestId, value),
  };
}
