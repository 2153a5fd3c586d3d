import { getEventListeners } from 'node:events';
import { type ModelChunk, ProviderError } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { collectBatches, collectUntilError, instantSleep, modelRequest } from '../test-support/index.js';
import type { EventReader } from './event-reader.js';
import { streamModelCall } from './stream-model-call.js';

describe('streamModelCall', () => {
  it('turns an attempt that throws before streaming into its error, leaving no listener behind', async () => {
    const controller = new AbortController();
    const thrown = new TypeError('body is not serialisable');
    const { chunks, error } = await collectUntilError(
      streamModelCall({
        provider: 'test',
        request: modelRequest({ signal: controller.signal }),
        idleTimeoutMs: 0,
        sleep: instantSleep().sleep,
        attempt: () => {
          throw thrown;
        },
        toError: (cause) =>
          new ProviderError(`test: ${(cause as Error).message}`, { code: 'invalid_request', provider: 'test', cause }),
      }),
    );
    expect(chunks).toEqual([]);
    expect(error).toMatchObject({ code: 'invalid_request', message: 'test: body is not serialisable', cause: thrown });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('aborts the attempt when the consumer stops before the answer is complete, but not after', async () => {
    const signals: AbortSignal[] = [];
    const call = (finishFirst: boolean) =>
      streamModelCall({
        provider: 'test',
        request: modelRequest(),
        idleTimeoutMs: 0,
        attempt: async function* ({ signal }): AsyncGenerator<ModelChunk> {
          signals.push(signal);
          if (finishFirst) yield { type: 'finish', reason: 'stop' };
          yield { type: 'text-delta', text: 'Hi' };
          // The rest of an unfinished answer is still on its way when the consumer stops.
          if (!finishFirst) await new Promise((resolve) => signal.addEventListener('abort', resolve));
        },
        toError: (cause) => new ProviderError(String(cause), { code: 'unknown', provider: 'test' }),
      });
    for (const finishFirst of [false, true]) {
      for await (const _ of call(finishFirst)) break;
    }
    expect(signals.map((signal) => signal.aborted)).toEqual([true, false]);
  });

  describe('batches', () => {
    /** Reads events that are words: `.` ends the answer, any other word is a text chunk and a usage chunk. */
    const wordReader = (): EventReader<string> => ({
      complete: false,
      read: (word) =>
        word === '.'
          ? [{ type: 'finish', reason: 'stop' }]
          : [
              { type: 'text-delta', text: word },
              { type: 'usage', usage: { outputTokens: 1 } },
            ],
      finish: () => [],
    });
    const call = (events: readonly string[] | AsyncIterable<string>) =>
      streamModelCall({
        provider: 'test',
        request: modelRequest(),
        idleTimeoutMs: 0,
        open: async () => ({ events, reader: wordReader() as EventReader<unknown> }),
        toError: (cause) => new ProviderError(String(cause), { code: 'unknown', provider: 'test' }),
      });
    const shape = (batches: ModelChunk[][]) =>
      batches.map((batch) => batch.map((chunk) => (chunk.type === 'text-delta' ? chunk.text : chunk.type)));

    it('hands on the events of one network read as one batch', async () => {
      const events = (async function* () {
        yield* ['Hi', 'there', '.'];
      })();
      expect(shape(await collectBatches(call(events)))).toEqual([['Hi', 'usage', 'there', 'usage', 'finish']]);
    });

    it('hands on the events of separate network reads as separate batches', async () => {
      const events = (async function* () {
        for (const word of ['Hi', 'there', '.']) {
          // Another read: the event loop turns (I/O) before the next event.
          await new Promise((resolve) => setImmediate(resolve));
          yield word;
        }
      })();
      expect(shape(await collectBatches(call(events)))).toEqual([['Hi', 'usage'], ['there', 'usage'], ['finish']]);
    });

    it('hands on the output of a read before the failure that ended it', async () => {
      const events = (async function* () {
        yield* ['Hi', 'there'];
        throw new Error('connection reset');
      })();
      const batches: string[][] = [];
      let failure: unknown;
      try {
        for await (const batch of call(events)) batches.push(shape([[...batch]])[0] as string[]);
      } catch (error) {
        failure = error;
      }
      expect(batches).toEqual([['Hi', 'usage', 'there', 'usage']]);
      expect(failure).toMatchObject({ code: 'unknown', message: 'Error: connection reset' });
    });

    it('hands on a response that was not streamed as a single batch', async () => {
      expect(shape(await collectBatches(call(['Hi', 'there', '.'])))).toEqual([
        ['Hi', 'usage', 'there', 'usage', 'finish'],
      ]);
    });
  });
});
