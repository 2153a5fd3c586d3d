import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolContext } from '@agentloop/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listFilesTool } from './list-files-tool.js';
import { READ_FILE_MAX_BYTES, readFileTool } from './read-file-tool.js';

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
  rmSync(workspace, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

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

  it('lists recursively, skipping node_modules', async () => {
    expect(await listFilesTool.execute({ path: '.', recursive: true }, context)).toBe(
      'README.md\nnode_modules/\nsrc/\nsrc/a.ts',
    );
  });
});
