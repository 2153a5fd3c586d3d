import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { previewChange } from './change-preview.js';

let workspace: string;
let outside: string;

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'agentloop-preview-'));
  outside = mkdtempSync(join(tmpdir(), 'agentloop-outside-'));
  mkdirSync(join(workspace, 'src'));
  writeFileSync(join(workspace, 'src', 'math.js'), 'export function add(a, b) {\n  return a - b;\n}\n');
});

afterEach(() => {
  rmSync(workspace, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const edit = (args: Record<string, unknown>) => previewChange({ name: 'edit_file', arguments: args }, { workspace });

describe('previewChange', () => {
  it('shows the diff an edit would make, from the file as it is', async () => {
    const preview = await edit({ path: 'src/math.js', old_text: 'a - b', new_text: 'a + b' });
    expect(preview).toEqual({
      kind: 'diff',
      path: 'src/math.js',
      created: false,
      added: 1,
      removed: 1,
      lines: [
        { kind: 'hunk', text: '@@ -1,3 +1,3 @@' },
        { kind: 'context', text: 'export function add(a, b) {' },
        { kind: 'removed', text: '  return a - b;' },
        { kind: 'added', text: '  return a + b;' },
        { kind: 'context', text: '}' },
      ],
    });
  });

  it('says when an edit will fail, as edit_file would', async () => {
    writeFileSync(join(workspace, 'twice.txt'), 'x\nx\n');
    expect(await edit({ path: 'src/math.js', old_text: 'a * b', new_text: 'a + b' })).toEqual({
      kind: 'problem',
      path: 'src/math.js',
      problem: 'old_text does not occur in the file, so the edit will fail',
    });
    expect(await edit({ path: 'twice.txt', old_text: 'x', new_text: 'y' })).toMatchObject({
      problem: 'old_text occurs 2 times in the file, so the edit will fail',
    });
    expect(await edit({ path: 'twice.txt', old_text: 'x', new_text: 'y', replace_all: true })).toMatchObject({
      kind: 'diff',
      added: 2,
      removed: 2,
    });
  });

  it('matches the line ends of a CRLF file as edit_file does', async () => {
    writeFileSync(join(workspace, 'dos.txt'), 'one\r\ntwo\r\n');
    expect(await edit({ path: 'dos.txt', old_text: 'one\ntwo', new_text: 'one\n2' })).toMatchObject({
      kind: 'diff',
      lines: expect.arrayContaining([{ kind: 'added', text: '2' }]),
    });
  });

  it('shows each file of an apply_patch as its diff, applied as the tool applies it', async () => {
    writeFileSync(join(workspace, 'old.txt'), 'bye\n');
    const patch = [
      '*** Begin Patch',
      '*** Update File: src/math.js',
      '*** Move to: src/add.js',
      '@@ export function add(a, b) {',
      '-  return a - b;',
      '+  return a + b;',
      '*** Add File: notes.md',
      '+# Notes',
      '*** Delete File: old.txt',
      '*** End Patch',
    ].join('\n');
    const preview = await previewChange({ name: 'apply_patch', arguments: { patch } }, { workspace });
    expect(preview).toEqual({
      kind: 'patch',
      files: [
        {
          kind: 'diff',
          path: 'src/math.js → src/add.js',
          created: false,
          added: 1,
          removed: 1,
          lines: [
            { kind: 'hunk', text: '@@ -1,3 +1,3 @@' },
            { kind: 'context', text: 'export function add(a, b) {' },
            { kind: 'removed', text: '  return a - b;' },
            { kind: 'added', text: '  return a + b;' },
            { kind: 'context', text: '}' },
          ],
        },
        expect.objectContaining({ kind: 'diff', path: 'notes.md', created: true, added: 1, removed: 0 }),
        expect.objectContaining({ kind: 'diff', path: 'old.txt (deleted)', added: 0, removed: 1 }),
      ],
    });
  });

  it('says which file of a patch will fail and why, and when the patch cannot be read', async () => {
    const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');
    const preview = await previewChange(
      {
        name: 'apply_patch',
        arguments: {
          patch: patch(
            '*** Update File: src/math.js',
            '@@',
            '-  return a * b;',
            '+  return a + b;',
            '*** Add File: ../out.txt',
            '+x',
          ),
        },
      },
      { workspace },
    );
    expect(preview).toMatchObject({
      kind: 'patch',
      files: [
        {
          kind: 'problem',
          path: 'src/math.js',
          problem: expect.stringContaining('hunk 1 of "src/math.js" expects the line "  return a * b;"'),
        },
        { kind: 'problem', path: '../out.txt', problem: expect.stringContaining('is outside the workspace') },
      ],
    });
    expect(await previewChange({ name: 'apply_patch', arguments: { patch: 'nonsense' } }, { workspace })).toMatchObject(
      {
        kind: 'problem',
        path: 'the patch',
        problem: expect.stringContaining('the first line must be "*** Begin Patch"'),
      },
    );
  });

  it('shows a new file whole, and a rewrite as a diff', async () => {
    const created = await previewChange(
      { name: 'write_file', arguments: { path: 'src/new.js', content: 'a\nb\n' } },
      { workspace },
    );
    expect(created).toMatchObject({ kind: 'diff', created: true, added: 2, removed: 0 });
    const rewritten = await previewChange(
      { name: 'write_file', arguments: { path: 'src/math.js', content: 'export const add = (a, b) => a + b;\n' } },
      { workspace },
    );
    expect(rewritten).toMatchObject({ kind: 'diff', created: false, added: 1, removed: 3 });
  });

  it('never reads a file outside the workspace or on the deny-list for a preview', async () => {
    writeFileSync(join(outside, 'secret.txt'), 'the secret\n');
    symlinkSync(join(outside, 'secret.txt'), join(workspace, 'link.txt'));
    writeFileSync(join(workspace, '.env'), 'TOKEN=1\n');
    writeFileSync(join(workspace, 'private.txt'), 'mine\n');
    for (const path of ['../secret.txt', 'link.txt', '.env']) {
      const preview = await previewChange({ name: 'write_file', arguments: { path, content: 'x' } }, { workspace });
      expect(preview).toMatchObject({ kind: 'problem', path });
      expect(JSON.stringify(preview)).not.toMatch(/the secret|TOKEN/);
    }
    expect(
      await previewChange(
        { name: 'edit_file', arguments: { path: 'private.txt', old_text: 'mine', new_text: 'yours' } },
        { workspace, deny: ['private.txt'] },
      ),
    ).toMatchObject({ kind: 'problem', problem: expect.stringContaining('deny-list') });
  });

  it('shows a command and where it runs, and other calls by their arguments', async () => {
    expect(
      await previewChange(
        { name: 'run_command', arguments: { command: 'npm test', directory: 'src' }, command: 'npm test' },
        { workspace },
      ),
    ).toEqual({ kind: 'command', command: 'npm test', directory: 'src', where: join(workspace, 'src') });
    expect(await previewChange({ name: 'deploy', arguments: { target: 'prod' } }, { workspace })).toEqual({
      kind: 'arguments',
    });
  });
});
