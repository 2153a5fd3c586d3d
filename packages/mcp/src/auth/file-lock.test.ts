import { mkdtemp, readFile, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOCK_WAIT_MS, withFileLock } from './file-lock.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * A lock file held by `holder` (its text), renewed as if just now for the whole test: its time lies past
 * any the test's clock reaches.
 */
async function heldLock(holder: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'agentloop-lock-')), 'tokens.json.lock');
  await writeFile(path, holder);
  const renewed = new Date(Date.now() + 100 * LOCK_WAIT_MS);
  await utimes(path, renewed, renewed);
  return path;
}

/** A clock that moves on by half a wait each time it is read: the wait ends within a few polls. */
function hurryingClock(): void {
  let now = Date.now();
  vi.spyOn(Date, 'now').mockImplementation(() => {
    now += LOCK_WAIT_MS / 2;
    return now;
  });
}

describe('withFileLock', () => {
  it('tells a process that waited for a live holder what it does and to try again, not to delete the lock', async () => {
    const holder = { pid: process.pid, host: hostname(), token: 'other', since: '2026-01-01T00:00:00Z' };
    const path = await heldLock(JSON.stringify(holder));
    hurryingClock();
    let ran = false;

    const failure = await withFileLock(
      path,
      async () => {
        ran = true;
      },
      { purpose: 'refreshing the token for https://mcp.example.com/mcp' },
    ).catch((error: Error) => error);

    expect(ran).toBe(false);
    expect((failure as Error).message).toBe(
      `Waited ${LOCK_WAIT_MS / 1000} s: another agentloop process (pid ${process.pid}) is refreshing the token for https://mcp.example.com/mcp; try again.`,
    );
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(holder);
  });

  it('names the host of a holder on another machine sharing the folder', async () => {
    const holder = { pid: 42, host: 'elsewhere', token: 'other', since: '2026-01-01T00:00:00Z' };
    const path = await heldLock(JSON.stringify(holder));
    hurryingClock();

    const failure = await withFileLock(path, async () => {}).catch((error: Error) => error);

    expect((failure as Error).message).toBe(
      `Waited ${LOCK_WAIT_MS / 1000} s: an agentloop process on elsewhere (pid 42) is holding the lock ${path}; try again.`,
    );
  });

  it('keeps the advice to delete the file for a lock whose holder cannot be read', async () => {
    const path = await heldLock('not a holder');
    hurryingClock();

    const failure = await withFileLock(path, async () => {}).catch((error: Error) => error);

    expect((failure as Error).message).toBe(
      `Waited ${LOCK_WAIT_MS / 1000} s for the lock ${path}, whose holder cannot be read; if no agentloop is running, delete that file and try again.`,
    );
  });
});
