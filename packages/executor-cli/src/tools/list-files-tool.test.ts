import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type * as fsPromises from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createListFilesTool } from './list-files-tool.js';

// Runs around every directory read, so a test can swap a directory for a link at the worst moment: after
// its parent was listed, or after it was opened and before its entries are read.
const reads = vi.hoisted(() => ({
  before: undefined as ((count: number) => void) | undefined,
  after: undefined as ((count: number) => void) | undefined,
  count: 0,
}));

vi.mock('node:fs/promises', async (importOriginal) => {
  const original = await importOriginal<typeof fsPromises>();
  const readdir = (async (...args: Parameters<typeof original.readdir>) => {
    const count = ++reads.count;
    reads.before?.(count);
    const entries = await original.readdir(...args);
    reads.after?.(count);
    return entries;
  }) as typeof original.readdir;
  return { ...original, readdir };
});

let workspace: string;
let outside: string;

beforeEach(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'agentloop-list-')));
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'agentloop-list-outside-')));
  mkdirSync(join(workspace, 'sub'));
  writeFileSync(join(workspace, 'sub', 'inside.txt'), 'inside\n');
  writeFileSync(join(outside, 'outside-secret-name.txt'), 'secret\n');
  Object.assign(reads, { before: undefined, after: undefined, count: 0 });
});

afterEach(() => {
  rmSync(workspace, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

function swapSubForLinkOutside(): void {
  renameSync(join(workspace, 'sub'), join(workspace, 'sub-moved'));
  symlinkSync(outside, join(workspace, 'sub'));
}

function list(procfs: boolean, args: { path?: string; recursive?: boolean } = {}) {
  const tool = createListFilesTool({ procfs });
  const context = {
    signal: new AbortController().signal,
    sessionId: 's',
    workspace,
    toolCallId: 'c',
    reportProgress: () => undefined,
  };
  return tool.execute({ path: args.path ?? '.', recursive: args.recursive ?? true }, context) as Promise<string>;
}

// Through /proc/self/fd on Linux, and the portable check (path resolved again, same device and inode).
const modes = [
  ...(process.platform === 'linux' ? [{ name: 'through /proc/self/fd', procfs: true }] : []),
  { name: 'by device and inode', procfs: false },
];

describe.each(modes)('list_files, $name', ({ procfs }) => {
  it('lists a directory tree', async () => {
    expect(await list(procfs)).toBe('sub/\nsub/inside.txt');
  });

  it('refuses a subdirectory swapped for a link to outside after its parent was listed', async () => {
    reads.after = (count) => {
      if (count === 1) swapSubForLinkOutside();
    };
    await expect(list(procfs)).rejects.toThrow(
      '"sub" changed while it was being listed (a link now leads elsewhere); it was not listed. List it again.',
    );
  });

  it('never lists outside names when a subdirectory is swapped after it was opened', async () => {
    reads.before = (count) => {
      if (count === 2) swapSubForLinkOutside();
    };
    const listing = list(procfs);
    if (procfs) {
      // The open directory is read through its descriptor: what moved away is what is listed.
      expect(await listing).toBe('sub/\nsub/inside.txt');
    } else {
      await expect(listing).rejects.toThrow('"sub" changed while it was being listed');
    }
  });

  it('says that a file is not a directory', async () => {
    await expect(list(procfs, { path: 'sub/inside.txt' })).rejects.toThrow(
      '"sub/inside.txt" is not a directory; read a file with read_file.',
    );
  });
});
