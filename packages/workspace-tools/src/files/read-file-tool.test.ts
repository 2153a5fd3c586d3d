import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, createTempWorkspace, failure, type TempWorkspace } from '../test-support/temp-workspace.js';
import { createReadFileTool, READ_FILE_MAX_BYTES } from './read-file-tool.js';

const readFileTool = createReadFileTool();

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace();
});
afterEach(() => {
  for (const fifo of FIFOS) unblockFifo(join(ws.workspace, fifo));
  ws.remove();
});

const read = (args: Record<string, unknown>, tool = readFileTool) => call(tool, args, ws.context());
const numbered = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}\n`).join('');

describe('read_file', () => {
  it('reads a whole file as it is', async () => {
    ws.write('src/app.ts', 'export const a = 1;\r\n');
    expect(await read({ path: 'src/app.ts' })).toBe('export const a = 1;\r\n');
  });

  it('reads a range of lines and says where the file goes on', async () => {
    ws.write('ten.txt', numbered(10));
    expect(await read({ path: 'ten.txt', start_line: 3, end_line: 4 })).toBe('line 3\nline 4\n[lines 3-4 of 10]');
    expect(await read({ path: 'ten.txt', start_line: 9 })).toBe('line 9\nline 10\n[lines 9-10 of 10]');
  });

  it('cuts a long file at a line end and says how to read on', async () => {
    ws.write('big.txt', numbered(20));
    const small = createReadFileTool({ maxBytes: 30 });
    expect(await read({ path: 'big.txt' }, small)).toBe(
      'line 1\nline 2\nline 3\nline 4\n[lines 1-4 of 20, cut at 30 bytes; read on with start_line 5]',
    );
  });

  it('cuts at 64 KiB by default', async () => {
    ws.write('big.txt', `${'a'.repeat(100)}\n`.repeat(1000));
    const text = await read({ path: 'big.txt' });
    expect(text.endsWith('[lines 1-648 of 1000, cut at 64 KiB; read on with start_line 649]')).toBe(true);
    expect(Buffer.byteLength(text)).toBeLessThan(READ_FILE_MAX_BYTES + 100);
  });

  it('shows the start of a single line longer than the cap', async () => {
    ws.write('min.js', `${'x'.repeat(50)}\nnext\n`);
    expect(await read({ path: 'min.js' }, createReadFileTool({ maxBytes: 10 }))).toBe(
      'xxxxxxxxxx\n[line 1 is longer than 10 bytes; only its start is shown. 2 lines in all.]',
    );
  });

  it('says that a file is empty', async () => {
    ws.write('empty.txt', '');
    expect(await read({ path: 'empty.txt' })).toBe('(empty file)');
  });

  it('refuses a start past the end and an end before the start', async () => {
    ws.write('ten.txt', numbered(10));
    expect(await failure(read({ path: 'ten.txt', start_line: 11 }))).toEqual({
      code: 'invalid_request',
      message: '"ten.txt" has 10 lines; start_line 11 is past its end.',
    });
    expect((await failure(read({ path: 'ten.txt', start_line: 5, end_line: 4 }))).message).toContain(
      'end_line (4) is before start_line (5)',
    );
  });

  it('refuses a binary file, saying what to do', async () => {
    writeFileSync(join(ws.workspace, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]));
    expect(await failure(read({ path: 'logo.png' }))).toEqual({
      code: 'wrong_kind',
      message:
        '"logo.png" is a binary file (8 bytes; it holds NUL bytes or is not UTF-8), and read_file reads text only. Inspect it with run_command (e.g. file, xxd) if you must.',
    });
    writeFileSync(join(ws.workspace, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect((await failure(read({ path: 'latin1.txt' }))).code).toBe('wrong_kind');
  });

  it('reads UTF-8 text with characters of several bytes', async () => {
    ws.write('café.txt', 'café ☕ 🚀\n');
    expect(await read({ path: 'café.txt' })).toBe('café ☕ 🚀\n');
  });

  it('refuses a directory, saying to list it, and a missing file, saying how to look', async () => {
    ws.write('src/a.ts', '');
    expect(await failure(read({ path: 'src' }))).toEqual({
      code: 'wrong_kind',
      message:
        '"src" is not a regular file (a directory: list it with list_files); these tools read and write regular files only.',
    });
    expect(await failure(read({ path: 'missing.ts' }))).toEqual({
      code: 'not_found',
      message: '"missing.ts" does not exist; list_files shows what is there (paths are relative to the workspace).',
    });
  });

  it.skipIf(!canMakeFifo())('refuses FIFOs at once, and file operations go on', { timeout: 5_000 }, async () => {
    ws.write('README.md', '# Hello\n');
    for (const fifo of FIFOS) execFileSync('mkfifo', [join(ws.workspace, fifo)]);
    // Four reads blocked in open() would take every thread of libuv's pool, and the read of README.md with them.
    const results = await Promise.allSettled([
      ...FIFOS.map((fifo) => read({ path: fifo })),
      read({ path: 'README.md' }),
    ]);
    expect(
      results.map((result) => (result.status === 'fulfilled' ? result.value : (result.reason as Error).message)),
    ).toEqual([
      ...FIFOS.map(
        (fifo) => `"${fifo}" is not a regular file (a named pipe); these tools read and write regular files only.`,
      ),
      '# Hello\n',
    ]);
  });

  it('declares itself read-only and closed-world', () => {
    expect(readFileTool.annotations).toEqual({ readOnly: true, destructive: false, openWorld: false });
  });
});

const FIFOS = ['pipe-1', 'pipe-2', 'pipe-3', 'pipe-4'];

function canMakeFifo(): boolean {
  if (process.platform === 'win32') return false;
  try {
    execFileSync('mkfifo', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// A read that blocked in open() on a FIFO (what this guards against) is let go by a writer.
function unblockFifo(path: string): void {
  if (!existsSync(path)) return;
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // No reader waits on it.
  }
}
