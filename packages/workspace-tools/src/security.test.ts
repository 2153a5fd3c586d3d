// The workspace guard's security cases, tried through every tool that takes a path: each test would fail
// if the guard broke. A swap between the check and the use is made by running a hook right before the
// real open() of the file or directory.
import { linkSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type * as fsPromises from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEditFileTool, createReadFileTool, createWriteFileTool } from './files/index.js';
import { createListFilesTool, createSearchTool } from './listing/index.js';
import { createApplyPatchTool } from './patch/index.js';
import { call, createTempWorkspace, failure, type TempWorkspace } from './test-support/temp-workspace.js';

const hooks = vi.hoisted(() => ({ beforeOpen: undefined as ((path: string) => void) | undefined }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const original = await importOriginal<typeof fsPromises>();
  const open = ((path: Parameters<typeof original.open>[0], ...rest: unknown[]) => {
    hooks.beforeOpen?.(String(path));
    return (original.open as (...args: unknown[]) => ReturnType<typeof original.open>)(path, ...rest);
  }) as typeof original.open;
  return { ...original, open };
});

let ws: TempWorkspace;

beforeEach(() => {
  hooks.beforeOpen = undefined;
  ws = createTempWorkspace();
  ws.write('notes.txt', 'inside\n');
  ws.write('docs/guide.md', 'inside guide\n');
  ws.write('.git/config', '[core]\n');
  writeFileSync(join(ws.outside, 'secret.txt'), 'the secret\n');
  writeFileSync(join(ws.outside, '.env'), 'TOKEN=outside\n');
});

afterEach(() => ws.remove());

const procfsModes = [
  ...(process.platform === 'linux' ? [{ name: 'through /proc/self/fd', procfs: true }] : []),
  { name: 'by device and inode', procfs: false },
];

// Each tool with a call that uses one path, and a check that nothing happened outside.
function pathTools(procfs = true): { name: string; run: (path: string) => Promise<string> }[] {
  const options = { procfs };
  const read = createReadFileTool(options);
  const write = createWriteFileTool(options);
  const edit = createEditFileTool(options);
  const list = createListFilesTool(options);
  const search = createSearchTool(options);
  const patch = createApplyPatchTool(options);
  const patchOf = (...lines: string[]) => ({ patch: ['*** Begin Patch', ...lines, '*** End Patch'].join('\n') });
  const context = () => ws.context();
  return [
    { name: 'read_file', run: (path) => call(read, { path }, context()) },
    { name: 'write_file', run: (path) => call(write, { path, content: 'written\n' }, context()) },
    { name: 'edit_file', run: (path) => call(edit, { path, old_text: 'the secret', new_text: 'changed' }, context()) },
    {
      name: 'apply_patch (update)',
      run: (path) => call(patch, patchOf(`*** Update File: ${path}`, '@@', '-the secret', '+changed'), context()),
    },
    { name: 'apply_patch (add)', run: (path) => call(patch, patchOf(`*** Add File: ${path}`, '+written'), context()) },
    { name: 'apply_patch (delete)', run: (path) => call(patch, patchOf(`*** Delete File: ${path}`), context()) },
    { name: 'list_files', run: (path) => call(list, { path }, context()) },
    { name: 'search', run: (path) => call(search, { pattern: 'secret', path }, context()) },
  ];
}

// The folder outside, named from the workspace's parent (both are temporary folders side by side).
const outsideName = () => basename(ws.outside);

function outsideUntouched(): void {
  expect(readFileSync(join(ws.outside, 'secret.txt'), 'utf8')).toBe('the secret\n');
  expect(readFileSync(join(ws.outside, '.env'), 'utf8')).toBe('TOKEN=outside\n');
}

describe.each(pathTools())('$name refuses paths that lead outside the workspace', ({ run }) => {
  it.each([
    ['../', () => `../${outsideName()}/secret.txt`],
    ['a ../ traversal through a folder', () => `docs/../../${outsideName()}/secret.txt`],
    ['an absolute path elsewhere', () => join(ws.outside, 'secret.txt')],
    ['Windows separators', () => `..\\${outsideName()}\\secret.txt`],
    ['a .env outside the workspace', () => `../${outsideName()}/.env`],
    ['/etc/passwd', () => '/etc/passwd'],
  ])('%s', async (_case, path) => {
    const { code, message } = await failure(run(path()));
    expect(code).toBe('outside_workspace');
    expect(message).toContain('is outside the workspace');
    outsideUntouched();
  });

  it('a symbolic link to a file outside', async () => {
    symlinkSync(join(ws.outside, 'secret.txt'), join(ws.workspace, 'link.txt'));
    expect((await failure(run('link.txt'))).code).toBe('outside_workspace');
    outsideUntouched();
  });

  it('a path under a symbolic link to a folder outside, existing or not', async () => {
    symlinkSync(ws.outside, join(ws.workspace, 'elsewhere'));
    expect((await failure(run('elsewhere/secret.txt'))).code).toBe('outside_workspace');
    expect((await failure(run('elsewhere/new.txt'))).code).toBe('outside_workspace');
    outsideUntouched();
  });

  it('a dangling symbolic link that would create a file outside', async () => {
    symlinkSync(join(ws.outside, 'created.txt'), join(ws.workspace, 'dangling.txt'));
    expect((await failure(run('dangling.txt'))).code).toBe('outside_workspace');
    expect(() => readFileSync(join(ws.outside, 'created.txt'))).toThrow(/ENOENT/);
  });

  it.each(['~', '~/.ssh/id_rsa', '~\\.ssh\\id_rsa'])('the home directory: %s', async (path) => {
    const { code, message } = await failure(run(path));
    expect(code).toBe('outside_workspace');
    expect(message).toContain('"~" is not expanded');
  });

  it('a NUL byte', async () => {
    const { code, message } = await failure(run('notes.txt\0.png'));
    expect(code).toBe('invalid_path');
    expect(message).toContain('NUL byte');
  });

  it('a Windows drive path', async () => {
    expect((await failure(run('C:\\Users\\me\\.ssh\\id_rsa'))).code).toBe('outside_workspace');
  });
});

describe('paths inside the workspace', () => {
  it('an absolute path inside and Windows separators inside both work', async () => {
    const read = createReadFileTool();
    expect(await call(read, { path: join(ws.workspace, 'notes.txt') }, ws.context())).toBe('inside\n');
    expect(await call(read, { path: 'docs\\guide.md' }, ws.context())).toBe('inside guide\n');
  });

  it('a file whose name starts with two dots is inside', async () => {
    ws.write('..notes', 'dots\n');
    expect(await call(createReadFileTool(), { path: '..notes' }, ws.context())).toBe('dots\n');
  });
});

describe.each(procfsModes)('a link swapped in between the check and the use ($name)', ({ procfs }) => {
  const swapDocsForOutside = () => {
    renameSync(join(ws.workspace, 'docs'), join(ws.workspace, 'docs-old'));
    symlinkSync(ws.outside, join(ws.workspace, 'docs'));
  };

  it('read_file: a folder on the way becomes a link out', async () => {
    writeFileSync(join(ws.workspace, 'docs', 'secret.txt'), 'inside\n');
    hooks.beforeOpen = (path) => {
      if (path.endsWith('docs/secret.txt')) swapDocsForOutside();
    };
    const { code } = await failure(call(createReadFileTool({ procfs }), { path: 'docs/secret.txt' }, ws.context()));
    expect(code).toBe('changed_while_opening');
  });

  it('read_file: the file itself becomes a link out', async () => {
    hooks.beforeOpen = (path) => {
      if (!path.endsWith('notes.txt')) return;
      rmSync(join(ws.workspace, 'notes.txt'));
      symlinkSync(join(ws.outside, 'secret.txt'), join(ws.workspace, 'notes.txt'));
    };
    const { code } = await failure(call(createReadFileTool({ procfs }), { path: 'notes.txt' }, ws.context()));
    expect(code).toBe('changed_while_opening');
  });

  it('write_file: a folder on the way becomes a link out, and the file outside keeps its content', async () => {
    writeFileSync(join(ws.workspace, 'docs', 'secret.txt'), 'inside\n');
    hooks.beforeOpen = (path) => {
      if (path.endsWith('docs/secret.txt')) swapDocsForOutside();
    };
    const { code } = await failure(
      call(createWriteFileTool({ procfs }), { path: 'docs/secret.txt', content: 'overwritten\n' }, ws.context()),
    );
    expect(code).toBe('changed_while_opening');
    outsideUntouched();
  });

  it('edit_file: the file becomes a link out, and the file outside keeps its content', async () => {
    ws.write('docs/secret.txt', 'the secret\n');
    hooks.beforeOpen = (path) => {
      if (path.endsWith('docs/secret.txt')) swapDocsForOutside();
    };
    const { code } = await failure(
      call(
        createEditFileTool({ procfs }),
        { path: 'docs/secret.txt', old_text: 'the secret', new_text: 'x' },
        ws.context(),
      ),
    );
    expect(code).toBe('changed_while_opening');
    outsideUntouched();
  });
});

describe("git's internal files", () => {
  const write = () => createWriteFileTool();
  const edit = () => createEditFileTool();

  it.each(['.git/config', '.git/hooks/pre-commit', '.GIT/config', 'vendor/lib/.git/config', './docs/../.git/config'])(
    'write_file refuses %s',
    async (path) => {
      const { code, message } = await failure(
        call(write(), { path, content: '[core]\n\thooksPath = /tmp\n' }, ws.context()),
      );
      expect(code).toBe('git_internals');
      expect(message).toContain('is inside .git');
      expect(readFileSync(join(ws.workspace, '.git', 'config'), 'utf8')).toBe('[core]\n');
    },
  );

  it('edit_file refuses .git/config', async () => {
    const { code } = await failure(
      call(edit(), { path: '.git/config', old_text: '[core]', new_text: '[x]' }, ws.context()),
    );
    expect(code).toBe('git_internals');
  });

  it('write_file refuses a link that leads into .git', async () => {
    symlinkSync(join(ws.workspace, '.git', 'config'), join(ws.workspace, 'config-link'));
    const { code } = await failure(call(write(), { path: 'config-link', content: 'x' }, ws.context()));
    expect(code).toBe('git_internals');
    expect(readFileSync(join(ws.workspace, '.git', 'config'), 'utf8')).toBe('[core]\n');
  });

  it("write_file and edit_file refuse the project's .agentloop settings, at any depth", async () => {
    ws.write('.agentloop/config.toml', 'model = "a"\n');
    for (const path of ['.agentloop/config.toml', 'sub/.agentloop/config.toml', '.AGENTLOOP/system_prompt.md']) {
      const { code, message } = await failure(
        call(write(), { path, content: '[sandbox]\nmode = "off"\n' }, ws.context()),
      );
      expect(code).toBe('agentloop_settings');
      expect(message).toContain('is inside .agentloop');
    }
    const { code } = await failure(
      call(edit(), { path: '.agentloop/config.toml', old_text: '"a"', new_text: '"b"' }, ws.context()),
    );
    expect(code).toBe('agentloop_settings');
    expect(readFileSync(join(ws.workspace, '.agentloop/config.toml'), 'utf8')).toBe('model = "a"\n');
  });

  it('write_file and edit_file refuse configuration the host acts on (.vscode, .claude, ...), at any depth (.envrc is denied outright)', async () => {
    ws.write('.vscode/settings.json', '{}\n');
    for (const path of [
      '.vscode/tasks.json',
      'app/.claude/settings.json',
      '.agents/skills/x/SKILL.md',
      '.gitmodules',
      '.IDEA/workspace.xml',
    ]) {
      const { code, message } = await failure(call(write(), { path, content: 'x' }, ws.context()));
      expect(code).toBe('host_config');
      expect(message).toContain('programs outside the agent act on');
    }
    const { code } = await failure(
      call(edit(), { path: '.vscode/settings.json', old_text: '{}', new_text: '{"x": 1}' }, ws.context()),
    );
    expect(code).toBe('host_config');
    expect(readFileSync(join(ws.workspace, '.vscode/settings.json'), 'utf8')).toBe('{}\n');
  });

  it('write_file and edit_file refuse every skills folder a session loads skills from, at any depth', async () => {
    const cases = [
      ['.agents/skills/pdf/SKILL.md', 'host_config'],
      ['.claude/skills/pdf/scripts/run.sh', 'host_config'],
      ['.agentloop/skills/pdf/SKILL.md', 'agentloop_settings'],
      ['packages/app/.agents/skills/pdf/SKILL.md', 'host_config'],
      ['packages/app/.claude/skills/pdf/SKILL.md', 'host_config'],
      ['packages/app/.agentloop/skills/pdf/SKILL.md', 'agentloop_settings'],
    ] as const;
    for (const [path, expected] of cases) {
      expect((await failure(call(write(), { path, content: 'x' }, ws.context()))).code).toBe(expected);
    }
    ws.write('.claude/skills/pdf/SKILL.md', 'Use pdftotext.\n');
    const { code } = await failure(
      call(
        edit(),
        { path: '.claude/skills/pdf/SKILL.md', old_text: 'pdftotext', new_text: 'curl x | sh' },
        ws.context(),
      ),
    );
    expect(code).toBe('host_config');
    expect(readFileSync(join(ws.workspace, '.claude/skills/pdf/SKILL.md'), 'utf8')).toBe('Use pdftotext.\n');
  });

  it('read_file may read .git/config', async () => {
    expect(await call(createReadFileTool(), { path: '.git/config' }, ws.context())).toBe('[core]\n');
  });
});

describe('secrets', () => {
  it('read_file, write_file, edit_file refuse a .env of the workspace; search skips it', async () => {
    ws.write('.env', 'TOKEN=inside-secret\n');
    for (const tool of pathTools()) {
      if (tool.name === 'list_files' || tool.name === 'search') continue;
      expect((await failure(tool.run('.env'))).code).toBe('denied_file');
    }
    const found = await call(createSearchTool(), { pattern: 'inside-secret' }, ws.context());
    expect(found).not.toContain('TOKEN=');
    expect(found).toContain('[files not searched: 1 on the deny-list]');
    expect(readFileSync(join(ws.workspace, '.env'), 'utf8')).toBe('TOKEN=inside-secret\n');
  });

  it('refuses .ssh keys of a workspace that is a home directory', async () => {
    ws.write('.ssh/id_ed25519', 'PRIVATE KEY\n');
    const { code, message } = await failure(call(createReadFileTool(), { path: '.ssh/id_ed25519' }, ws.context()));
    expect(code).toBe('denied_file');
    expect(message).toContain('(it matches "**/.ssh/**")');
  });

  it('refuses a link whose name is harmless to a file on the deny-list', async () => {
    ws.write('.env', 'TOKEN=1\n');
    symlinkSync(join(ws.workspace, '.env'), join(ws.workspace, 'settings.txt'));
    expect((await failure(call(createReadFileTool(), { path: 'settings.txt' }, ws.context()))).code).toBe(
      'denied_file',
    );
  });
});

describe('hard links', () => {
  it('write_file and edit_file refuse a file with another hard link, which may be outside', async () => {
    const target = join(ws.outside, 'secret.txt');
    try {
      linkSync(target, join(ws.workspace, 'hard.txt'));
    } catch {
      return; // The temporary folders are on different file systems: no hard link to test.
    }
    const write = await failure(call(createWriteFileTool(), { path: 'hard.txt', content: 'x' }, ws.context()));
    expect(write.message).toContain('has 2 hard links');
    const edit = await failure(
      call(createEditFileTool(), { path: 'hard.txt', old_text: 'the secret', new_text: 'x' }, ws.context()),
    );
    expect(edit.message).toContain('has 2 hard links');
    outsideUntouched();
  });
});

describe('directories swapped during a listing', () => {
  it('list_files never lists the outside names of a folder swapped for a link to outside', async () => {
    ws.write('docs/inside.txt', 'x');
    writeFileSync(join(ws.outside, 'outside-name.txt'), 'x');
    let swapped = false;
    hooks.beforeOpen = (path) => {
      if (!swapped && path.endsWith('/docs')) {
        swapped = true;
        renameSync(join(ws.workspace, 'docs'), join(ws.workspace, 'docs-moved'));
        symlinkSync(ws.outside, join(ws.workspace, 'docs'));
      }
    };
    const result = await call(createListFilesTool(), { path: '.', recursive: true }, ws.context()).catch(
      (error: Error) => error.message,
    );
    expect(result).not.toContain('outside-name');
    expect(result).not.toContain('secret.txt');
  });
});
