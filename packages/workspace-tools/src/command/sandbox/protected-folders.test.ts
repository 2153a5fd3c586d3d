import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { protectedFolders } from './protected-folders.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentloop-protected-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('protectedFolders', () => {
  it("finds the workspace's .git and .agentloop, nested repositories' and a submodule's .git file", () => {
    for (const folder of ['.git', '.agentloop', 'app/.git', 'libs/a/b/.GIT', 'node_modules/x/.git']) {
      mkdirSync(join(root, folder), { recursive: true });
    }
    mkdirSync(join(root, 'vendor/sub'), { recursive: true });
    writeFileSync(join(root, 'vendor/sub/.git'), 'gitdir: ../../.git/modules/sub\n');
    expect(protectedFolders(root).sort()).toEqual(
      ['.agentloop', '.git', 'app/.git', 'libs/a/b/.GIT', 'vendor/sub/.git'].map((path) => join(root, path)),
    );
  });

  it('leaves out links, which bubblewrap would follow, and folders deeper than it searches', () => {
    symlinkSync('/nowhere', join(root, '.git'));
    mkdirSync(join(root, 'a/b/c/d/e/.git'), { recursive: true });
    expect(protectedFolders(root)).toEqual([]);
  });
});
