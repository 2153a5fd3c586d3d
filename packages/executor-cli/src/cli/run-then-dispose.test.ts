import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryOutput } from '../test-support/index.js';
import { runThenDispose } from './run-then-dispose.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Stubs process.exit; resolves with the status it is called with. */
function stubExit(): Promise<number | string | null | undefined> {
  return new Promise((resolve) => {
    vi.spyOn(process, 'exit').mockImplementation((code) => {
      resolve(code);
      return undefined as never;
    });
  });
}

function counter() {
  let calls = 0;
  return {
    dispose: async () => {
      calls += 1;
    },
    get calls() {
      return calls;
    },
  };
}

describe('runThenDispose', () => {
  it('disposes once after the session ends, resolves with its status, and stops listening for SIGTERM', async () => {
    const listeners = process.listenerCount('SIGTERM');
    const disposal = counter();
    const ended = runThenDispose({ run: async () => 3, dispose: disposal.dispose });
    expect(process.listenerCount('SIGTERM')).toBe(listeners + 1);
    expect(await ended).toBe(3);
    expect(disposal.calls).toBe(1);
    expect(process.listenerCount('SIGTERM')).toBe(listeners);
  });

  it('disposes when the session throws, and lets the error through', async () => {
    const disposal = counter();
    await expect(
      runThenDispose({
        run: async () => {
          throw new Error('boom');
        },
        dispose: disposal.dispose,
      }),
    ).rejects.toThrow('boom');
    expect(disposal.calls).toBe(1);
  });

  it("reports a plugin's failure to dispose, redacted, and keeps the session's status", async () => {
    const errorOutput = new MemoryOutput();
    const status = await runThenDispose({
      run: async () => 0,
      dispose: async () => {
        throw new Error('Plugins failed to dispose: "db": lost sk-proj-abcdefghijklmnopqrstuvwx');
      },
      errorOutput,
      redact: (text) => text.replace(/sk-proj-\w+/, '[REDACTED]'),
    });
    expect(status).toBe(0);
    expect(errorOutput.text).toBe('⚠ Plugins failed to dispose: "db": lost [REDACTED]\n');
  });

  it('on SIGTERM cancels the run, disposes once, and ends with 143', async () => {
    const exited = stubExit();
    const disposal = counter();
    let endRun: (status: number) => void = () => undefined;
    const cancel = vi.fn(() => endRun(130));
    const ended = runThenDispose({
      run: () => new Promise<number>((resolve) => (endRun = resolve)),
      dispose: disposal.dispose,
      cancel,
    });
    process.emit('SIGTERM');
    expect(await ended).toBe(143);
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(disposal.calls).toBe(1);
    expect(await exited).toBe(143);
  });

  it('on SIGTERM lets the cancelled run finish its output before disposing and exiting', async () => {
    vi.useFakeTimers();
    try {
      const order: string[] = [];
      const exited = stubExit().then((code) => order.push(`exit ${code}`));
      let endRun: (status: number) => void = () => undefined;
      void runThenDispose({
        run: () => new Promise<number>((resolve) => (endRun = resolve)),
        // The run unwinds a little after its cancel, then writes its result line.
        cancel: () =>
          setTimeout(() => {
            order.push('result line');
            endRun(130);
          }, 5),
        dispose: async () => {
          order.push('disposed');
        },
      });
      process.emit('SIGTERM');
      await vi.advanceTimersByTimeAsync(5);
      await exited;
      expect(order).toEqual(['result line', 'disposed', 'exit 143']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('on SIGTERM ends the process after a grace period even when the session does not end', async () => {
    vi.useFakeTimers();
    try {
      const exited = stubExit();
      const disposal = counter();
      void runThenDispose({
        run: () => new Promise<number>(() => undefined),
        dispose: disposal.dispose,
        terminateGraceMs: 2_000,
      });
      process.emit('SIGTERM');
      await vi.advanceTimersByTimeAsync(1_999);
      expect(disposal.calls).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(await exited).toBe(143);
      expect(disposal.calls).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
