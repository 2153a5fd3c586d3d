import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, createTempWorkspace, failure, type TempWorkspace } from '../test-support/temp-workspace.js';
import { createWriteFileTool } from './write-file-tool.js';

const writeFileTool = createWriteFileTool();

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace();
});
afterEach(() => ws.remove());

const write = (path: string, content: string) => call(writeFileTool, { path, content }, ws.context());

describe('write_file', () => {
  it('creates a file and its folders', async () => {
    expect(await write('src/deep/new.ts', 'export {};\nexport const a = 1;\n')).toBe(
      'Created "src/deep/new.ts" (2 lines, 31 bytes).',
    );
    expect(readFileSync(join(ws.workspace, 'src/deep/new.ts'), 'utf8')).toBe('export {};\nexport const a = 1;\n');
  });

  it('replaces a longer file whole, leaving nothing of the old content', async () => {
    ws.write('notes.txt', 'a much longer old content\n'.repeat(10));
    expect(await write('notes.txt', 'short')).toBe('Replaced "notes.txt" (1 line, 5 bytes; it had 260 bytes).');
    expect(readFileSync(join(ws.workspace, 'notes.txt'), 'utf8')).toBe('short');
  });

  it('keeps the mode of a file it replaces', async () => {
    const file = ws.write('run.sh', '#!/bin/sh\n');
    const { chmodSync } = await import('node:fs');
    chmodSync(file, 0o755);
    await write('run.sh', '#!/bin/sh\necho hi\n');
    expect(statSync(file).mode & 0o777).toBe(0o755);
  });

  it('refuses to create a file where a folder on the way is a file', async () => {
    ws.write('src', 'a file, not a folder');
    expect(await failure(write('src/a.ts', 'x'))).toEqual({
      code: 'wrong_kind',
      message: '"src/a.ts" cannot be created: a part of its folder path is a file, not a folder.',
    });
  });

  it('refuses a directory', async () => {
    ws.write('src/a.ts', '');
    expect((await failure(write('src', 'x'))).code).toBe('wrong_kind');
  });

  it('declares itself destructive and closed-world', () => {
    expect(writeFileTool.annotations).toEqual({ readOnly: false, destructive: true, openWorld: false });
  });
});
