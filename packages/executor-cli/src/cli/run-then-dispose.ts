import type { TerminalOutput } from '../render/index.js';
import { createStyle, describeError, terminalFeatures } from '../render/index.js';
import { EXIT_CODES } from '../session/exit-codes.js';
import type { Redactor } from '../verbose/redact.js';

/** A session to run, and how to end it. */
export interface RunThenDisposeOptions {
  /** Runs the session; resolves with its exit status. */
  run(): Promise<number>;
  /** Releases what the session's plugins hold (ComposedAgent.dispose); called once. */
  dispose(): Promise<void>;
  /** Stops the session's work on SIGTERM (cancels the agent's run), before `dispose`. */
  cancel?(): void;
  /** Where a failure to dispose is reported. Default `process.stderr`. */
  errorOutput?: TerminalOutput;
  /** Removes secrets from that report. */
  redact?: Redactor;
  /** How long SIGTERM waits for the cancelled session to end before disposing anyway. Default 2,000 ms. */
  terminateGraceMs?: number;
}

const TERMINATE_GRACE_MS = 2_000;

/**
 * Runs a session, then disposes its plugins — once, however the session ends: with a status, with an
 * error, or on SIGTERM. (Ctrl-C, as SIGINT, ends the run or the session through their own handlers, so it
 * comes back here as a status.) SIGTERM would otherwise end the process at once, past every `finally`, and
 * no plugin's `dispose` would run; here it cancels the run, disposes, and ends the process with status 143
 * (128 + SIGTERM), as the signal would have. A second SIGTERM ends it at once. A plugin that fails to
 * dispose is reported on stderr and leaves the session's status as it was: the task's outcome is what
 * the status says.
 */
export async function runThenDispose(options: RunThenDisposeOptions): Promise<number> {
  const errorOutput = options.errorOutput ?? process.stderr;
  let disposing: Promise<void> | undefined;
  const disposeOnce = () => {
    disposing ??= options.dispose().catch((error: unknown) => {
      const style = createStyle(terminalFeatures(errorOutput).color);
      const line = describeError(error);
      errorOutput.write(`${style.yellow('⚠')} ${options.redact ? options.redact(line) : line}\n`);
    });
    return disposing;
  };
  let terminated = false;
  let running: Promise<number> | undefined;
  const onTerminate = () => {
    terminated = true;
    options.cancel?.();
    // The cancelled run still writes its end (the `--json` result line) and may still use the plugins:
    // wait for it, but not for long, since a session waiting at its prompt, or a plugin's executor, may
    // not end when the run is cancelled.
    void settledWithin(running, options.terminateGraceMs ?? TERMINATE_GRACE_MS)
      .then(disposeOnce)
      .finally(() => process.exit(EXIT_CODES.terminated));
  };
  process.once('SIGTERM', onTerminate);
  let status: number;
  try {
    running = options.run();
    status = await running;
  } finally {
    process.off('SIGTERM', onTerminate);
    await disposeOnce();
  }
  return terminated ? EXIT_CODES.terminated : status;
}

/** Resolves when `work` settles, or after `ms`, whichever comes first; never rejects. */
function settledWithin(work: Promise<unknown> | undefined, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    void work?.then(
      () => resolve(),
      () => resolve(),
    );
  }).then(() => undefined);
}
