import { readdirSync, readlinkSync } from 'node:fs';

/** The ids of the processes whose working directory is `directory` (Linux: /proc). */
export function processesIn(directory: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) === directory) found.push(Number(entry));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

/** Waits until no process works in `directory`; resolves with those left after about two seconds. */
export async function noProcessesIn(directory: string): Promise<number[]> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (processesIn(directory).length === 0) return [];
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return processesIn(directory);
}
