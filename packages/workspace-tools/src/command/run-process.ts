import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { CappedOutput } from './capped-output.js';

/** A process to run, and what ends it. */
export interface ProcessRequest {
  /** The program, found in PATH when not a path. */
  file: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  /** Ends the process (and its group) after this many milliseconds. */
  timeoutMs: number;
  /** The output kept: head and tail, see CappedOutput. */
  maxOutputBytes: number;
  /** Ends the process (and its group) when aborted. */
  signal: AbortSignal;
  /** Opens a fourth pipe (fd 3) whose lines come back in `status` (bubblewrap's `--json-status-fd 3`). */
  statusPipe?: boolean;
}

/** How a process ended. */
export interface ProcessOutcome {
  /** Why it ended: it exited (by itself or by a signal of its own), or the timeout or a cancel ended it. */
  ending: 'exited' | 'timeout' | 'cancelled';
  /** Its exit code; null when a signal ended it. */
  exitCode: number | null;
  /** The signal that ended it, if one did. */
  exitSignal: NodeJS.Signals | null;
  /** stdout and stderr together, capped. */
  output: CappedOutput;
  /** The start of stderr alone (4 KiB), for a launcher's own error (bubblewrap's). */
  stderrStart: string;
  /** What came through the status pipe. */
  status: string;
  durationMs: number;
}

// After the process exits, how long its pipes may stay open (a process that left its group holds them)
// before they are closed from this side.
const PIPE_GRACE_MS = 2_000;
const STDERR_START_BYTES = 4096;

/**
 * Runs a process in a process group of its own (spawned detached: `setsid`), and ends the whole group
 * with SIGKILL on timeout, on cancel, and when the process itself exits, so nothing it started outlives
 * it: a background job, a double fork, a fork loop. A process that makes itself a new session or group
 * escapes this (a sandbox's PID namespace does not let it). Never rejects for the process's own failure:
 * a spawn error (the program missing) rejects.
 */
export function runProcess(request: ProcessRequest): Promise<ProcessOutcome> {
  const started = performance.now();
  const output = new CappedOutput(request.maxOutputBytes);
  const stdio: ('ignore' | 'pipe')[] = ['ignore', 'pipe', 'pipe'];
  if (request.statusPipe) stdio.push('pipe');
  return new Promise((resolve, reject) => {
    if (request.signal.aborted) {
      reject(request.signal.reason);
      return;
    }
    const child = spawn(request.file, request.args, {
      cwd: request.cwd,
      env: request.env,
      stdio,
      detached: true,
    });
    let ending: ProcessOutcome['ending'] = 'exited';
    let stderrStart = Buffer.alloc(0);
    let status = '';
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;

    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ESRCH: the group is gone already.
      }
    };
    const end = (why: 'timeout' | 'cancelled') => {
      if (exit === undefined && ending === 'exited') ending = why;
      killGroup();
    };
    const timer = request.timeoutMs > 0 ? setTimeout(() => end('timeout'), request.timeoutMs) : undefined;
    const onAbort = () => end('cancelled');
    request.signal.addEventListener('abort', onAbort, { once: true });
    let grace: NodeJS.Timeout | undefined;

    const finish = () => {
      if (settled || exit === undefined) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      request.signal.removeEventListener('abort', onAbort);
      for (const stream of child.stdio) stream?.destroy();
      resolve({
        ending,
        exitCode: exit.code,
        exitSignal: exit.signal,
        output,
        stderrStart: stderrStart.toString('utf8'),
        status,
        durationMs: Math.round(performance.now() - started),
      });
    };

    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => {
      output.push(chunk);
      if (stderrStart.length < STDERR_START_BYTES) {
        stderrStart = Buffer.concat([stderrStart, chunk]).subarray(0, STDERR_START_BYTES);
      }
    });
    (child.stdio[3] as Readable | undefined)?.on('data', (chunk: Buffer) => {
      status += chunk.toString('utf8');
    });
    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
      killGroup();
      reject(error);
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // What the process left running in its group ends with it.
      killGroup();
      grace = setTimeout(finish, PIPE_GRACE_MS);
    });
    child.on('close', finish);
  });
}
