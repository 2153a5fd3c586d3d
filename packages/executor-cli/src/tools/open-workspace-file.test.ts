import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_DENY_LIST } from './deny-list.js';
import { assertOpenedInside, openWorkspaceFile } from './open-workspace-file.js';

let workspace: string;
let outside: string;
const handles: FileHandle[] = [];

beforeEach(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'agentloop-open-')));
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'agentloop-open-outside-')));
  writeFileSync(join(workspace, 'notes.txt'), 'inside\n');
  writeFileSync(join(workspace, '.env'), 'TOKEN=1\n');
  writeFileSync(join(outside, 'notes.txt'), 'the secret\n');
});

afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
  rmSync(workspace, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

async function opened(path: string) {
  const handle = await open(path, 'r');
  handles.push(handle);
  return { handle, stats: await handle.stat() };
}

// Through /proc/self/fd on Linux, and the portable check (path resolved again, same device and inode).
const modes = [
  ...(process.platform === 'linux' ? [{ name: 'through /proc/self/fd', procfs: true }] : []),
  { name: 'by device and inode', procfs: false },
];

describe.each(modes)('assertOpenedInside, $name', ({ procfs }) => {
  const check = (path: string) => ({ workspace, path, denyList: DEFAULT_DENY_LIST, procfs });

  it('accepts the file the path names', async () => {
    const { handle, stats } = await opened(join(workspace, 'notes.txt'));
    await expect(assertOpenedInside(handle, stats, check('notes.txt'))).resolves.toBeUndefined();
  });

  it('refuses a descriptor of a file outside the workspace, as a swap before the open leaves', async () => {
    const { handle, stats } = await opened(join(outside, 'notes.txt'));
    await expect(assertOpenedInside(handle, stats, check('notes.txt'))).rejects.toThrow(
      '"notes.txt" changed while it was being opened (a link now leads elsewhere); it was not read.',
    );
  });

  it('refuses a descriptor of a file on the deny-list opened under a harmless name', async () => {
    const { handle, stats } = await opened(join(workspace, '.env'));
    await expect(assertOpenedInside(handle, stats, check('notes.txt'))).rejects.toThrow(
      /"notes\.txt" (is on the deny-list|changed while it was being opened)/,
    );
  });
});

describe('openWorkspaceFile', () => {
  it('opens a regular file of the workspace with its status', async () => {
    const { handle, stats } = await openWorkspaceFile(workspace, 'notes.txt', { denyList: DEFAULT_DENY_LIST });
    handles.push(handle);
    expect(stats.size).toBe(7);
    expect((await handle.readFile('utf8')).toString()).toBe('inside\n');
  });

  it('refuses, by device and inode, a directory swapped for a link before the open', async () => {
    mkdirSync(join(workspace, 'docs'));
    writeFileSync(join(workspace, 'docs', 'notes.txt'), 'inside\n');
    await expect(
      openWorkspaceFile(workspace, 'docs/notes.txt', {
        denyList: DEFAULT_DENY_LIST,
        procfs: false,
        beforeOpen: () => {
          renameSync(join(workspace, 'docs'), join(workspace, 'docs-old'));
          symlinkSync(outside, join(workspace, 'docs'));
        },
      }),
    ).rejects.toThrow('"docs/notes.txt" changed while it was being opened');
  });
});
