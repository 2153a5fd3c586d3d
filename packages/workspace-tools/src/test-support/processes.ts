import { readdirSync, readFileSync } from 'node:fs';

/**
 * The pids of live processes whose command line contains `marker` (Linux: read from /proc). Tests give
 * their commands a marker no other process has (`sleep 3141.<random>`), start them, end them, and check
 * by pid that none is left. Zombies (whose command line is empty) do not count: they are dead.
 */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').includes(marker))
        found.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** True when no process with this pid exists (or only its zombie). */
export function isGone(pid: number): boolean {
  try {
    const state = /State:\s+(\S)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return state === 'Z' || state === 'X';
  } catch {
    return true;
  }
}

/** A sleep duration no other process uses, as a marker for processesWith. */
export function uniqueSleep(): string {
  return `3141.${process.pid}${Math.floor(Math.random() * 1e6)}`;
}

/**
 * The pids still alive after waiting up to `withinMs` for them to end. A process killed with SIGKILL has
 * closed its files (the command's pipes) a moment before the kernel marks it dead, so a test that saw the
 * pipes close gives it that moment.
 */
export async function stillAlive(pids: readonly number[], withinMs = 2_000): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  let alive = pids.filter((pid) => !isGone(pid));
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    alive = alive.filter((pid) => !isGone(pid));
  }
  return alive;
}

/** The live processes with the marker after waiting up to `withinMs` for them to end (see stillAlive). */
export async function leftWith(marker: string, withinMs = 2_000): Promise<number[]> {
  return stillAlive(processesWith(marker), withinMs);
}
