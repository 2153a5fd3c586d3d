import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolContext } from '@agentloop/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDenyList } from './deny-list.js';
import { createListFilesTool, listFilesTool } from './list-files-tool.js';
import { createReadFileTool, READ_FILE_MAX_BYTES, readFileTool } from './read-file-tool.js';

let workspace: string;
let outside: string;
let context: ToolContext;

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'agentloop-tools-'));
  mkdirSync(join(workspace, 'src'));
  mkdirSync(join(workspace, 'node_modules', 'pkg'), { recursive: true });
  writeFileSync(join(workspace, 'README.md'), '# Hello\n');
  writeFileSync(join(workspace, 'src', 'a.ts'), 'export {};\n');
  writeFileSync(join(workspace, 'node_modules', 'pkg', 'index.js'), '');
  outside = mkdtempSync(join(tmpdir(), 'agentloop-outside-'));
  writeFileSync(join(outside, 'secret.txt'), 'the secret\n');
  context = {
    signal: new AbortController().signal,
    sessionId: 's',
    workspace,
    toolCallId: 'c',
    reportProgress: () => undefined,
  };
});

afterEach(() => {
  // A read that blocked in open() on a FIFO (what this guards against) is let go by a writer.
  for (const fifo of FIFOS) unblockFifo(join(workspace, fifo));
  rmSync(workspace, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const FIFOS = ['pipe-1', 'pipe-2', 'pipe-3', 'pipe-4'];
const canMakeFifo = (() => {
  const probe = join(tmpdir(), `agentloop-fifo-probe-${process.pid}`);
  try {
    execFileSync('mkfifo', [probe], { stdio: 'ignore' });
    rmSync(probe);
    return true;
  } catch {
    return false;
  }
})();

function unblockFifo(path: string): void {
  if (!existsSync(path)) return;
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // No reader waits on it.
  }
}

describe('read_file', () => {
  it('reads a file relative to the workspace', async () => {
    expect(await readFileTool.execute({ path: 'README.md' }, context)).toBe('# Hello\n');
  });

  it('refuses a path outside the workspace', async () => {
    await expect(readFileTool.execute({ path: '../etc/passwd' }, context)).rejects.toThrow(/is outside the workspace/);
  });

  it('refuses a symbolic link to a file outside the workspace', async () => {
    symlinkSync(join(outside, 'secret.txt'), join(workspace, 'secret.txt'));
    await expect(readFileTool.execute({ path: 'secret.txt' }, context)).rejects.toThrow(/is outside the workspace/);
  });

  it('refuses a file under a symbolic link to a directory outside the workspace', async () => {
    symlinkSync(outside, join(workspace, 'elsewhere'));
    await expect(readFileTool.execute({ path: 'elsewhere/secret.txt' }, context)).rejects.toThrow(
      /is outside the workspace/,
    );
    await expect(readFileTool.execute({ path: 'elsewhere/missing.txt' }, context)).rejects.toThrow(
      /is outside the workspace/,
    );
  });

  it('follows a symbolic link that stays inside the workspace', async () => {
    symlinkSync(join(workspace, 'README.md'), join(workspace, 'readme-link.md'));
    expect(await readFileTool.execute({ path: 'readme-link.md' }, context)).toBe('# Hello\n');
  });

  it('reads a file whose name starts with two dots', async () => {
    writeFileSync(join(workspace, '..notes'), 'dots\n');
    expect(await readFileTool.execute({ path: '..notes' }, context)).toBe('dots\n');
  });

  it.skipIf(!canMakeFifo)('refuses FIFOs at once, and file operations go on', { timeout: 5_000 }, async () => {
    for (const fifo of FIFOS) execFileSync('mkfifo', [join(workspace, fifo)]);
    // Four reads blocked in open() would take every thread of libuv's pool, and the read of README.md with them.
    const results = await Promise.allSettled([
      ...FIFOS.map((fifo) => readFileTool.execute({ path: fifo }, context)),
      readFileTool.execute({ path: 'README.md' }, context),
    ]);
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value : String(result.reason)))).toEqual([
      ...FIFOS.map(
        (fifo) => `Error: "${fifo}" is not a regular file (a named pipe); read_file reads regular files only.`,
      ),
      '# Hello\n',
    ]);
  });

  it('refuses a directory, saying to list it', async () => {
    await expect(readFileTool.execute({ path: 'src' }, context)).rejects.toThrow(
      '"src" is not a regular file (a directory: list it with list_files); read_file reads regular files only.',
    );
  });

  it('refuses a file that a directory swapped for a link between the check and the open leads to', async () => {
    mkdirSync(join(workspace, 'docs'));
    writeFileSync(join(workspace, 'docs', 'secret.txt'), 'inside\n');
    const swapping = createReadFileTool({
      beforeOpen: () => {
        renameSync(join(workspace, 'docs'), join(workspace, 'docs-old'));
        symlinkSync(outside, join(workspace, 'docs'));
      },
    });
    await expect(swapping.execute({ path: 'docs/secret.txt' }, context)).rejects.toThrow(
      '"docs/secret.txt" changed while it was being opened (a link now leads elsewhere); it was not read.',
    );
  });

  it('refuses a file swapped for a link between the check and the open', async () => {
    writeFileSync(join(workspace, 'notes.txt'), 'inside\n');
    const swapping = createReadFileTool({
      beforeOpen: () => {
        rmSync(join(workspace, 'notes.txt'));
        symlinkSync(join(outside, 'secret.txt'), join(workspace, 'notes.txt'));
      },
    });
    await expect(swapping.execute({ path: 'notes.txt' }, context)).rejects.toThrow(
      '"notes.txt" changed while it was being opened',
    );
  });

  it('refuses the secret files of the deny-list, saying how the user can allow one', async () => {
    mkdirSync(join(workspace, '.ssh'));
    writeFileSync(join(workspace, '.ssh', 'id_ed25519'), 'PRIVATE KEY\n');
    writeFileSync(join(workspace, '.env'), 'TOKEN=1\n');
    await expect(readFileTool.execute({ path: '.ssh/id_ed25519' }, context)).rejects.toThrow(
      '".ssh/id_ed25519" is on the deny-list of files that hold secrets (it matches "**/.ssh/**"), so it is not read. The user can allow it with allow = [".ssh/id_ed25519"] under [tools] in their user configuration (agentloop config path shows where).',
    );
    await expect(readFileTool.execute({ path: './src/../.env' }, context)).rejects.toThrow(/on the deny-list/);
  });

  it('reads public keys and .env templates, which the deny-list leaves out', async () => {
    mkdirSync(join(workspace, '.ssh'));
    writeFileSync(join(workspace, '.ssh', 'id_ed25519.pub'), 'ssh-ed25519 AAAA\n');
    writeFileSync(join(workspace, '.env.example'), 'TOKEN=\n');
    expect(await readFileTool.execute({ path: '.ssh/id_ed25519.pub' }, context)).toBe('ssh-ed25519 AAAA\n');
    expect(await readFileTool.execute({ path: '.env.example' }, context)).toBe('TOKEN=\n');
  });

  it('refuses a link to a file on the deny-list', async () => {
    writeFileSync(join(workspace, '.env'), 'TOKEN=1\n');
    symlinkSync(join(workspace, '.env'), join(workspace, 'settings.txt'));
    await expect(readFileTool.execute({ path: 'settings.txt' }, context)).rejects.toThrow(
      /"settings\.txt" is on the deny-list .* allow = \["\.env"\]/,
    );
  });

  it('takes deny and allow patterns from the configuration', async () => {
    mkdirSync(join(workspace, 'secrets'));
    writeFileSync(join(workspace, 'secrets', 'db.txt'), 'password\n');
    writeFileSync(join(workspace, '.env.local'), 'TOKEN=1\n');
    const configured = createReadFileTool({
      denyList: createDenyList({ deny: ['secrets/**'], allow: ['.env.local'] }),
    });
    await expect(configured.execute({ path: 'secrets/db.txt' }, context)).rejects.toThrow(/matches "secrets\/\*\*"/);
    expect(await configured.execute({ path: '.env.local' }, context)).toBe('TOKEN=1\n');
  });

  it('cuts a long file and says how long it is', async () => {
    writeFileSync(join(workspace, 'big.txt'), 'a'.repeat(READ_FILE_MAX_BYTES + 10));
    const text = await readFileTool.execute({ path: 'big.txt' }, context);
    expect(
      text.endsWith(
        `[cut: the file has ${READ_FILE_MAX_BYTES + 10} bytes; the first ${READ_FILE_MAX_BYTES} are shown]`,
      ),
    ).toBe(true);
  });
});

describe('list_files', () => {
  it('lists a directory with directories marked', async () => {
    expect(await listFilesTool.execute({ path: '.', recursive: false }, context)).toBe(
      'README.md\nnode_modules/\nsrc/',
    );
  });

  it('refuses a symbolic link to a directory outside the workspace', async () => {
    symlinkSync(outside, join(workspace, 'elsewhere'));
    await expect(listFilesTool.execute({ path: 'elsewhere', recursive: false }, context)).rejects.toThrow(
      /is outside the workspace/,
    );
  });

  it('marks the files of the deny-list, recursively too', async () => {
    mkdirSync(join(workspace, '.ssh'));
    writeFileSync(join(workspace, '.ssh', 'id_rsa'), '');
    writeFileSync(join(workspace, '.ssh', 'id_rsa.pub'), '');
    writeFileSync(join(workspace, '.env'), '');
    writeFileSync(join(workspace, 'src', 'server.key'), '');
    const listed = await listFilesTool.execute({ path: '.', recursive: true }, context);
    expect(listed).toBe(
      [
        '.env (denied: holds secrets)',
        '.ssh/ (denied: holds secrets)',
        'README.md',
        'node_modules/',
        'src/',
        '.ssh/id_rsa (denied: holds secrets)',
        '.ssh/id_rsa.pub',
        'src/a.ts',
        'src/server.key (denied: holds secrets)',
      ].join('\n'),
    );
    const configured = createListFilesTool({ denyList: createDenyList({ deny: ['src/a.ts'] }) });
    expect(await configured.execute({ path: 'src', recursive: false }, context)).toBe(
      'a.ts (denied: holds secrets)\nserver.key (denied: holds secrets)',
    );
  });

  it('lists recursively, skipping node_modules', async () => {
    expect(await listFilesTool.execute({ path: '.', recursive: true }, context)).toBe(
      'README.md\nnode_modules/\nsrc/\nsrc/a.ts',
    );
  });
});
