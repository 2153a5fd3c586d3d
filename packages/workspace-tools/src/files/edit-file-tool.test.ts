import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, createTempWorkspace, failure, type TempWorkspace } from '../test-support/temp-workspace.js';
import { createEditFileTool } from './edit-file-tool.js';

const editFileTool = createEditFileTool();

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace();
});
afterEach(() => ws.remove());

const edit = (args: Record<string, unknown>) => call(editFileTool, args, ws.context());
const content = (path: string) => readFileSync(join(ws.workspace, path), 'utf8');

const SOURCE = [
  'function add(a, b) {',
  '  return a - b;',
  '}',
  '',
  'function sub(a, b) {',
  '  return a - b;',
  '}',
  '',
].join('\n');

describe('edit_file', () => {
  it('replaces text that occurs once and returns the unified diff', async () => {
    ws.write('src/math.js', SOURCE);
    const result = await edit({
      path: 'src/math.js',
      old_text: 'function add(a, b) {\n  return a - b;',
      new_text: 'function add(a, b) {\n  return a + b;',
    });
    expect(result).toBe(
      [
        'Edited "src/math.js": replaced 1 occurrence.',
        '--- src/math.js',
        '+++ src/math.js',
        '@@ -1,5 +1,5 @@',
        ' function add(a, b) {',
        '-  return a - b;',
        '+  return a + b;',
        ' }',
        ' ',
        ' function sub(a, b) {',
        '',
      ].join('\n'),
    );
    expect(content('src/math.js')).toBe(SOURCE.replace('a - b', 'a + b'));
  });

  it('says how many times ambiguous text occurs and on which lines, and changes nothing', async () => {
    ws.write('src/math.js', SOURCE);
    expect(await failure(edit({ path: 'src/math.js', old_text: '  return a - b;', new_text: '  return 0;' }))).toEqual({
      code: 'ambiguous_match',
      message:
        'old_text occurs 2 times in "src/math.js" (starting on lines 2, 6). Include more of the surrounding text so that it occurs once, or set replace_all to true to replace every occurrence.',
    });
    expect(content('src/math.js')).toBe(SOURCE);
  });

  it('replaces every occurrence with replace_all', async () => {
    ws.write('src/math.js', SOURCE);
    const result = await edit({ path: 'src/math.js', old_text: 'a - b', new_text: 'a * b', replace_all: true });
    expect(result.split('\n')[0]).toBe('Edited "src/math.js": replaced 2 occurrences.');
    expect(content('src/math.js')).toBe(SOURCE.replaceAll('a - b', 'a * b'));
  });

  it('says when the text is not found, and how to find it', async () => {
    ws.write('a.txt', 'hello\n');
    expect(await failure(edit({ path: 'a.txt', old_text: 'Hello', new_text: 'Bye' }))).toEqual({
      code: 'no_match',
      message:
        'old_text was not found in "a.txt". Read the file again with read_file and copy the text exactly, with its whitespace and indentation.',
    });
  });

  it('inserts replacement text literally ($& and $1 are not patterns)', async () => {
    ws.write('a.txt', 'price: X\n');
    await edit({ path: 'a.txt', old_text: 'X', new_text: '$& $1 $$' });
    expect(content('a.txt')).toBe('price: $& $1 $$\n');
  });

  it('matches and writes \\r\\n line ends in a Windows file when the model wrote \\n', async () => {
    ws.write('win.txt', 'one\r\ntwo\r\nthree\r\n');
    await edit({ path: 'win.txt', old_text: 'one\ntwo', new_text: 'one\n2' });
    expect(content('win.txt')).toBe('one\r\n2\r\nthree\r\n');
  });

  it('makes a file shorter without leaving old bytes at its end', async () => {
    ws.write('a.txt', 'keep\nremove this long line\n');
    await edit({ path: 'a.txt', old_text: 'remove this long line\n', new_text: '' });
    expect(content('a.txt')).toBe('keep\n');
  });

  it('refuses an empty old_text, an edit that changes nothing, a binary and a missing file', async () => {
    ws.write('a.txt', 'x\n');
    writeFileSync(join(ws.workspace, 'b.bin'), Buffer.from([1, 0, 2]));
    expect((await failure(edit({ path: 'a.txt', old_text: '', new_text: 'y' }))).code).toBe('invalid_request');
    expect((await failure(edit({ path: 'a.txt', old_text: 'x', new_text: 'x' }))).code).toBe('invalid_request');
    expect((await failure(edit({ path: 'b.bin', old_text: 'x', new_text: 'y' }))).code).toBe('wrong_kind');
    expect((await failure(edit({ path: 'c.txt', old_text: 'x', new_text: 'y' }))).code).toBe('not_found');
  });
});
