import { type ModelChunk, ProviderError } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { modelRequest } from '../test-support/index.js';
import { MAX_CONTROLLER_USES } from './attempt-controllers.js';
import { streamModelCall } from './stream-model-call.js';

describe('attempt controllers', () => {
  const signals: AbortSignal[] = [];
  const call = (stopEarly = false) => {
    const stream = streamModelCall({
      provider: 'test',
      request: modelRequest(),
      idleTimeoutMs: 0,
      attempt: async function* ({ signal }): AsyncGenerator<ModelChunk> {
        signals.push(signal);
        yield { type: 'text-delta', text: 'Hi' };
        // A consumer that stops early stops an answer still on its way.
        if (stopEarly) await new Promise((resolve) => signal.addEventListener('abort', resolve));
        yield { type: 'finish', reason: 'stop' };
      },
      toError: (cause) => new ProviderError(String(cause), { code: 'unknown', provider: 'test' }),
    });
    return (async () => {
      for await (const _ of stream) if (stopEarly) break;
    })();
  };

  it('lends the signal of an attempt that ended cleanly to the next, a limited number of times', async () => {
    signals.length = 0;
    for (let index = 0; index < MAX_CONTROLLER_USES + 1; index++) await call();
    const distinct = new Set(signals);
    // One signal for the first MAX_CONTROLLER_USES attempts (or fewer, if it started with uses from another test), then a new one.
    expect(distinct.size).toBeGreaterThanOrEqual(2);
    expect(distinct.size).toBeLessThanOrEqual(3);
    for (const signal of distinct)
      expect(signals.filter((seen) => seen === signal).length).toBeLessThanOrEqual(MAX_CONTROLLER_USES);
    expect(signals.every((signal) => !signal.aborted)).toBe(true);
  });

  it('never lends an aborted signal again', async () => {
    signals.length = 0;
    await call(true);
    await call();
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[1]).not.toBe(signals[0]);
    expect(signals[1]?.aborted).toBe(false);
  });

  it('does not lend a signal while its attempt is still running', async () => {
    signals.length = 0;
    const first = streamModelCall({
      provider: 'test',
      request: modelRequest(),
      idleTimeoutMs: 0,
      attempt: async function* ({ signal }): AsyncGenerator<ModelChunk> {
        signals.push(signal);
        yield { type: 'text-delta', text: 'Hi' };
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
        yield { type: 'finish', reason: 'stop' };
      },
      toError: (cause) => new ProviderError(String(cause), { code: 'unknown', provider: 'test' }),
    })[Symbol.asyncIterator]();
    await first.next();
    await call();
    expect(signals[1]).not.toBe(signals[0]);
    await first.return?.();
  });
});
