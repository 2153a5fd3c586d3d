import { getEventListeners } from 'node:events';
import { type ModelChunk, ProviderError } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { collectUntilError, instantSleep, modelRequest } from '../test-support/index.js';
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
          if (!finishFirst) yield { type: 'finish', reason: 'stop' };
        },
        toError: (cause) => new ProviderError(String(cause), { code: 'unknown', provider: 'test' }),
      });
    for (const finishFirst of [false, true]) {
      for await (const _ of call(finishFirst)) break;
    }
    expect(signals.map((signal) => signal.aborted)).toEqual([true, false]);
  });
});
