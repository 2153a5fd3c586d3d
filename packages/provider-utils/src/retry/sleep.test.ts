import { CancelledError } from '@agentloop/spec';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sleep } from './sleep.js';

describe('sleep', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves after the given time', async () => {
    let resolved = false;
    const wait = sleep(1_000, new AbortController().signal).then(() => {
      resolved = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(resolved).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await wait;
    expect(resolved).toBe(true);
  });

  it('rejects with a CancelledError when the signal aborts', async () => {
    const controller = new AbortController();
    const wait = sleep(1_000, controller.signal).catch((error: unknown) => error);
    controller.abort();
    expect(await wait).toBeInstanceOf(CancelledError);
  });

  it('rejects at once when the signal has already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(sleep(1_000, controller.signal)).rejects.toBeInstanceOf(CancelledError);
  });
});
