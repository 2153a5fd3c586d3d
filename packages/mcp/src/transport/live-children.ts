import type { ChildProcess } from 'node:child_process';

/**
 * The server processes this process started and has not seen end. When this process exits while some
 * are still running (an app that forgot to close them, `process.exit()` after an error), each one's
 * process group gets SIGTERM, synchronously, in the `exit` event: no server outlives its owner. The
 * listener is there only while a server runs, so an idle agentloop adds nothing to the process.
 */
const children = new Set<ChildProcess>();

/** Tracks a started server until it exits. */
export function trackChild(child: ChildProcess): void {
  if (children.size === 0) process.on('exit', killAll);
  children.add(child);
  child.once('exit', () => untrack(child));
}

/** Stops tracking a server (it exited, or was killed). */
export function untrack(child: ChildProcess): void {
  if (!children.delete(child)) return;
  if (children.size === 0) process.off('exit', killAll);
}

/** How many servers this process has running: for tests that check that none was left behind. */
export function liveChildCount(): number {
  return children.size;
}

/**
 * Sends `signal` to the child's whole process group (a wrapper such as `npx` starts the real server as its
 * own child), or to the child alone where there are no process groups (Windows). Never throws.
 */
export function signalChild(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (process.platform !== 'win32' && child.pid !== undefined) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // Already gone.
  }
}

function killAll(): void {
  for (const child of children) signalChild(child, 'SIGTERM');
}
