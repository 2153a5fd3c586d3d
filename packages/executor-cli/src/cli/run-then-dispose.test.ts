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

  it('on SIGTERM ends the process after disposing even when the session does not end', async () => {
    const exited = stubExit();
    const disposal = counter();
    void runThenDispose({ run: () => new Promise<number>(() => undefined), dispose: disposal.dispose });
    process.emit('SIGTERM');
    expect(await exited).toBe(143);
    expect(disposal.calls).toBe(1);
  });
});
