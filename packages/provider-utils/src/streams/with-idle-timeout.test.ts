import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withIdleTimeout } from './with-idle-timeout.js';

class IdleError extends Error {}

/** A source whose items the test releases one by one. */
function controlledSource<T>() {
  const waiting: Array<(result: IteratorResult<T>) => void> = [];
  const queued: Array<IteratorResult<T>> = [];
  let returned = false;
  const iterable: AsyncIterable<T> = {
    [Symbol.asyncIterator]: () => ({
      next: () =>
        new Promise<IteratorResult<T>>((resolve) => {
          const result = queued.shift();
          if (result) resolve(result);
          else waiting.push(resolve);
        }),
      return: async () => {
        returned = true;
        return { done: true, value: undefined };
      },
    }),
  };
  const push = (result: IteratorResult<T>) => {
    const resolve = waiting.shift();
    if (resolve) resolve(result);
    else queued.push(result);
  };
  return {
    iterable,
    emit: (value: T) => push({ done: false, value }),
    end: () => push({ done: true, value: undefined }),
    wasReturned: () => returned,
  };
}

describe('withIdleTimeout', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('passes items through while they keep coming', async () => {
    const source = controlledSource<number>();
    const items: number[] = [];
    const run = (async () => {
      for await (const item of withIdleTimeout(source.iterable, {
        idleTimeoutMs: 100,
        createError: () => new IdleError(),
      }))
        items.push(item);
    })();
    for (const item of [1, 2, 3]) {
      await vi.advanceTimersByTimeAsync(90);
      source.emit(item);
    }
    source.end();
    await run;
    expect(items).toEqual([1, 2, 3]);
  });

  it('throws the created error and calls onTimeout when the source stays silent', async () => {
    const source = controlledSource<number>();
    const onTimeout = vi.fn();
    const items: number[] = [];
    const run = (async () => {
      for await (const item of withIdleTimeout(source.iterable, {
        idleTimeoutMs: 100,
        onTimeout,
        createError: (ms) => new IdleError(`silent ${ms} ms`),
      }))
        items.push(item);
    })();
    const outcome = run.catch((error: unknown) => error);
    source.emit(1);
    await vi.advanceTimersByTimeAsync(99);
    expect(onTimeout).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(IdleError);
    expect((error as Error).message).toBe('silent 100 ms');
    expect(onTimeout).toHaveBeenCalledOnce();
    expect(items).toEqual([1]);
  });

  it('does not count the time the consumer spends between reads', async () => {
    const source = controlledSource<number>();
    source.emit(1);
    source.emit(2);
    source.end();
    const items: number[] = [];
    for await (const item of withIdleTimeout(source.iterable, {
      idleTimeoutMs: 100,
      createError: () => new IdleError(),
    })) {
      items.push(item);
      await vi.advanceTimersByTimeAsync(500);
    }
    expect(items).toEqual([1, 2]);
  });

  it('passes errors of the source through', async () => {
    const failing = (async function* () {
      yield 1;
      throw new RangeError('source failed');
    })();
    const run = async () => {
      for await (const _ of withIdleTimeout(failing, { idleTimeoutMs: 100, createError: () => new IdleError() })) {
        // drain
      }
    };
    await expect(run()).rejects.toBeInstanceOf(RangeError);
  });

  it('closes the source when the consumer stops early', async () => {
    const source = controlledSource<number>();
    source.emit(1);
    for await (const _ of withIdleTimeout(source.iterable, { idleTimeoutMs: 100, createError: () => new IdleError() }))
      break;
    expect(source.wasReturned()).toBe(true);
  });

  it('never times out when disabled', async () => {
    const source = controlledSource<number>();
    const items: number[] = [];
    const run = (async () => {
      for await (const item of withIdleTimeout(source.iterable, {
        idleTimeoutMs: 0,
        createError: () => new IdleError(),
      }))
        items.push(item);
    })();
    await vi.advanceTimersByTimeAsync(60_000);
    source.emit(7);
    source.end();
    await run;
    expect(items).toEqual([7]);
  });
});
