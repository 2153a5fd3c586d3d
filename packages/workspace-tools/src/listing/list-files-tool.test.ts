import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDenyList } from '../guard/index.js';
import { call, createTempWorkspace, failure, type TempWorkspace } from '../test-support/temp-workspace.js';
import { createListFilesTool, LIST_FILES_PAGE_SIZE } from './list-files-tool.js';

const listFilesTool = createListFilesTool();

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace();
  ws.write('README.md', '# Hi\n');
  ws.write('src/app.ts', '');
  ws.write('src/app.test.ts', '');
  ws.write('src/lib/util.ts', '');
  ws.write('.git/HEAD', 'ref: refs/heads/main\n');
});
afterEach(() => ws.remove());

const list = (args: Record<string, unknown>, tool = listFilesTool) => call(tool, args, ws.context());

describe('list_files', () => {
  it('lists one level, directories marked, .git never shown', async () => {
    expect(await list({})).toBe('README.md\nsrc/');
  });

  it('lists recursively, folder by folder, with paths relative to the workspace', async () => {
    expect(await list({ recursive: true })).toBe(
      'README.md\nsrc/\nsrc/app.test.ts\nsrc/app.ts\nsrc/lib/\nsrc/lib/util.ts',
    );
    expect(await list({ path: 'src/lib' })).toBe('src/lib/util.ts');
  });

  it('lists the files a glob matches: without a slash at any depth, with one from the folder', async () => {
    expect(await list({ pattern: '*.ts' })).toBe('src/app.test.ts\nsrc/app.ts\nsrc/lib/util.ts');
    expect(await list({ pattern: 'src/*.ts' })).toBe('src/app.test.ts\nsrc/app.ts');
    expect(await list({ path: 'src', pattern: '**/*.test.ts' })).toBe('src/app.test.ts');
    expect(await list({ pattern: '*.py' })).toBe('No files match "*.py" in ".".');
  });

  it('honours .gitignore files, nested ones and negations, and says how many it left out', async () => {
    ws.write('.gitignore', 'dist/\n*.log\n');
    ws.write('dist/out.js', '');
    ws.write('debug.log', '');
    ws.write('src/.gitignore', 'generated.ts\n!keep.log\n');
    ws.write('src/generated.ts', '');
    ws.write('src/keep.log', '');
    ws.write('node_modules/pkg/index.js', '');
    expect(await list({ recursive: true })).toBe(
      [
        '.gitignore',
        'README.md',
        'src/',
        'src/.gitignore',
        'src/app.test.ts',
        'src/app.ts',
        'src/keep.log',
        'src/lib/',
        'src/lib/util.ts',
        '[4 ignored by .gitignore not shown; include_ignored: true lists them]',
      ].join('\n'),
    );
    expect(await list({ include_ignored: true })).toBe('.gitignore\nREADME.md\ndebug.log\ndist/\nnode_modules/\nsrc/');
  });

  it('applies the .gitignore of the folders above a listed subfolder', async () => {
    ws.write('.gitignore', 'lib/\n');
    expect(await list({ path: 'src', recursive: true })).toBe(
      'src/app.test.ts\nsrc/app.ts\n[1 ignored by .gitignore not shown; include_ignored: true lists them]',
    );
  });

  it('pages through a long listing', async () => {
    for (let index = 0; index < LIST_FILES_PAGE_SIZE + 5; index += 1) {
      writeFileSync(join(ws.workspace, `f${String(index).padStart(4, '0')}.txt`), '');
    }
    const first = (await list({})).split('\n');
    expect(first).toHaveLength(LIST_FILES_PAGE_SIZE + 1);
    expect(first.at(-1)).toBe('[entries 1-500 of 507; call again with offset 500 for more]');
    expect(await list({ offset: 500 })).toBe(
      'f0499.txt\nf0500.txt\nf0501.txt\nf0502.txt\nf0503.txt\nf0504.txt\nsrc/\n[entries 501-507 of 507]',
    );
    expect(await list({ offset: 600 })).toBe('offset 600 is past the end: there are 507 entries.');
  });

  it('marks the files of the deny-list rather than hiding them', async () => {
    ws.write('.env', 'TOKEN=1\n');
    ws.write('.ssh/id_rsa', '');
    ws.write('.ssh/id_rsa.pub', '');
    expect(await list({ recursive: true, pattern: '*' })).toContain('.env (denied: holds secrets)\n');
    const listed = await list({ recursive: true });
    expect(listed).toContain('.ssh/id_rsa (denied: holds secrets)');
    expect(listed).toContain('.ssh/id_rsa.pub\n');
    const configured = createListFilesTool({ denyList: createDenyList({ deny: ['src/app.ts'] }) });
    expect(await list({ path: 'src' }, configured)).toBe(
      'src/app.test.ts\nsrc/app.ts (denied: holds secrets)\nsrc/lib/',
    );
  });

  it('lists a link but never follows it, even into the workspace', async () => {
    mkdirSync(join(ws.workspace, 'links'));
    symlinkSync(ws.outside, join(ws.workspace, 'links', 'outside'));
    symlinkSync(join(ws.workspace, 'src'), join(ws.workspace, 'links', 'src'));
    writeFileSync(join(ws.outside, 'outside-name.txt'), '');
    expect(await list({ path: 'links', recursive: true })).toBe('links/outside\nlinks/src');
  });

  it('refuses a link to a folder outside as the folder to list', async () => {
    symlinkSync(ws.outside, join(ws.workspace, 'elsewhere'));
    expect((await failure(list({ path: 'elsewhere' }))).code).toBe('outside_workspace');
  });

  it('says that a file is not a directory, and that a folder does not exist', async () => {
    expect(await failure(list({ path: 'README.md' }))).toEqual({
      code: 'wrong_kind',
      message: '"README.md" is not a directory; read a file with read_file.',
    });
    expect((await failure(list({ path: 'nope' }))).code).toBe('not_found');
  });

  it('stops when the run is cancelled', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(call(listFilesTool, { recursive: true }, ws.context(controller.signal))).rejects.toThrow('cancelled');
  });
});
