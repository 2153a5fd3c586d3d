// The file tools through another program's file system (an editor's buffers): the text comes from and
// goes to it, and the workspace guard still decides which files it may be asked about.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, createTempWorkspace, failure, type TempWorkspace } from '../test-support/temp-workspace.js';
import { createWorkspaceTools } from '../workspace-tools.js';
import type { FileSystemRequest, WorkspaceFileSystem } from './workspace-file-system.js';

/** An editor's buffers: text by absolute path, and every request it was asked. */
class FakeEditor implements WorkspaceFileSystem {
  readonly buffers = new Map<string, string>();
  readonly reads: FileSystemRequest[] = [];
  readonly writes: (FileSystemRequest & { content: string })[] = [];
  failWith: Error | undefined;

  async readTextFile(request: FileSystemRequest): Promise<string> {
    this.reads.push(request);
    if (this.failWith) throw this.failWith;
    const text = this.buffers.get(request.path);
    if (text === undefined) throw new Error(`no buffer for ${request.path}`);
    return text;
  }

  async writeTextFile(request: FileSystemRequest & { content: string }): Promise<void> {
    this.writes.push(request);
    if (this.failWith) throw this.failWith;
    this.buffers.set(request.path, request.content);
  }
}

let ws: TempWorkspace;
let editor: FakeEditor;
let tools: ReturnType<typeof createWorkspaceTools>;
beforeEach(() => {
  ws = createTempWorkspace();
  editor = new FakeEditor();
  tools = createWorkspaceTools({ fileSystem: editor, include: ['read_file', 'write_file', 'edit_file'] });
});
afterEach(() => ws.remove());

const tool = (name: string) => tools.find((candidate) => candidate.name === name)!;
const onDisk = (path: string) => readFileSync(join(ws.workspace, path), 'utf8');

describe('read_file through a file system', () => {
  it("returns the editor's text (unsaved changes), asked for by absolute path and tool call", async () => {
    const file = ws.write('notes.txt', 'saved\n');
    editor.buffers.set(file, 'unsaved one\nunsaved two\nunsaved three\n');
    expect(await call(tool('read_file'), { path: 'notes.txt', start_line: 2, end_line: 2 }, ws.context())).toBe(
      'unsaved two\n[lines 2-2 of 3]',
    );
    expect(editor.reads).toEqual([{ path: file, toolCallId: 'call-1', signal: expect.any(AbortSignal) }]);
  });

  it('cuts a long text at the byte cap, as from the disk', async () => {
    const file = ws.write('long.txt', '');
    editor.buffers.set(file, `${'a'.repeat(10)}\n${'b'.repeat(10)}\n`);
    const limited = createWorkspaceTools({ fileSystem: editor, include: ['read_file'], maxReadBytes: 15 })[0]!;
    expect(await call(limited, { path: 'long.txt' }, ws.context())).toBe(
      'aaaaaaaaaa\n[lines 1-1 of 2, cut at 15 bytes; read on with start_line 2]',
    );
  });

  it('never asks about a file outside the workspace, on the deny-list, or binary on disk', async () => {
    ws.write('.env', 'KEY=1\n');
    ws.write('image.bin', 'a\u0000b');
    const read = (path: string) => failure(call(tool('read_file'), { path }, ws.context()));
    expect((await read('../outside.txt')).code).toBe('outside_workspace');
    expect((await read('.env')).code).toBe('denied_file');
    expect((await read('image.bin')).code).toBe('wrong_kind');
    expect((await read('missing.txt')).code).toBe('not_found');
    expect(editor.reads).toEqual([]);
  });

  it("reports the editor's failure as file_system_error, naming the file", async () => {
    ws.write('notes.txt', 'saved\n');
    editor.failWith = new Error('buffer is closed');
    expect(await failure(call(tool('read_file'), { path: 'notes.txt' }, ws.context()))).toEqual({
      code: 'file_system_error',
      message: '"notes.txt" could not be read through the editor: buffer is closed',
    });
  });

  it('stays a cancel when the call is cancelled while the editor reads', async () => {
    ws.write('notes.txt', 'saved\n');
    const controller = new AbortController();
    const reason = new Error('cancelled by the user');
    let reading!: () => void;
    const started = new Promise<void>((resolve) => {
      reading = resolve;
    });
    const slow: WorkspaceFileSystem = {
      readTextFile: ({ signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(new Error('request aborted')));
          reading();
        }),
      writeTextFile: async () => undefined,
    };
    const readFile = createWorkspaceTools({ fileSystem: slow, include: ['read_file'] })[0]!;
    const result = call(readFile, { path: 'notes.txt' }, ws.context(controller.signal));
    await started;
    controller.abort(reason);
    await expect(result).rejects.toBe(reason);
  });
});

describe('write_file through a file system', () => {
  it('writes through the editor and leaves the disk to it', async () => {
    const file = ws.write('notes.txt', 'saved\n');
    expect(await call(tool('write_file'), { path: 'notes.txt', content: 'new\ntext\n' }, ws.context())).toBe(
      'Replaced "notes.txt" (2 lines, 9 bytes; it had 6 bytes).',
    );
    expect(editor.buffers.get(file)).toBe('new\ntext\n');
    expect(onDisk('notes.txt')).toBe('saved\n');
  });

  it('creates a new file and its folders on disk, empty, before the editor writes it', async () => {
    expect(await call(tool('write_file'), { path: 'src/new.ts', content: 'export {};\n' }, ws.context())).toBe(
      'Created "src/new.ts" (1 line, 11 bytes).',
    );
    expect(onDisk('src/new.ts')).toBe('');
    expect(editor.buffers.get(join(ws.workspace, 'src/new.ts'))).toBe('export {};\n');
  });

  it('removes the file it created when the editor cannot write it', async () => {
    editor.failWith = new Error('read-only buffer');
    expect(await failure(call(tool('write_file'), { path: 'new.txt', content: 'x' }, ws.context()))).toEqual({
      code: 'file_system_error',
      message: '"new.txt" could not be written through the editor: read-only buffer',
    });
    expect(existsSync(join(ws.workspace, 'new.txt'))).toBe(false);
  });

  it('never writes into .git, outside the workspace, or to a file of the deny-list', async () => {
    ws.write('.git/config', '[core]\n');
    const write = (path: string) => failure(call(tool('write_file'), { path, content: 'x' }, ws.context()));
    expect((await write('.git/hooks/pre-commit')).code).toBe('git_internals');
    expect((await write(join(ws.outside, 'escape.txt'))).code).toBe('outside_workspace');
    expect((await write('.env')).code).toBe('denied_file');
    expect(editor.writes).toEqual([]);
  });
});

describe('edit_file through a file system', () => {
  it("edits the editor's text and returns the diff of that text", async () => {
    const file = ws.write('math.js', 'return a - b;\n');
    editor.buffers.set(file, '// unsaved\nreturn a - b;\n');
    expect(await call(tool('edit_file'), { path: 'math.js', old_text: 'a - b', new_text: 'a + b' }, ws.context())).toBe(
      [
        'Edited "math.js": replaced 1 occurrence.',
        '--- math.js',
        '+++ math.js',
        '@@ -1,2 +1,2 @@',
        ' // unsaved',
        '-return a - b;',
        '+return a + b;',
        '',
      ].join('\n'),
    );
    expect(editor.buffers.get(file)).toBe('// unsaved\nreturn a + b;\n');
    expect(onDisk('math.js')).toBe('return a - b;\n');
  });

  it('changes nothing when the text is not in the editor’s buffer', async () => {
    const file = ws.write('math.js', 'return a - b;\n');
    editor.buffers.set(file, 'return a * b;\n');
    expect(
      (await failure(call(tool('edit_file'), { path: 'math.js', old_text: 'a - b', new_text: 'a + b' }, ws.context())))
        .code,
    ).toBe('no_match');
    expect(editor.writes).toEqual([]);
  });
});
