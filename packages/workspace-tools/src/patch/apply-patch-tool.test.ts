import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, createTempWorkspace, failure, type TempWorkspace } from '../test-support/temp-workspace.js';
import { createApplyPatchTool } from './apply-patch-tool.js';

const applyPatchTool = createApplyPatchTool();

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace();
});
afterEach(() => ws.remove());

const apply = (...lines: string[]) =>
  call(applyPatchTool, { patch: ['*** Begin Patch', ...lines, '*** End Patch'].join('\n') }, ws.context());
const content = (path: string) => readFileSync(join(ws.workspace, path), 'utf8');
const exists = (path: string) => existsSync(join(ws.workspace, path));

const SOURCE = [
  'def add(a, b):',
  '    return a - b',
  '',
  '',
  'def sub(a, b):',
  '    return a - b',
  '',
  '',
  'def mul(a, b):',
  '    return a / b',
  '',
].join('\n');

describe('apply_patch', () => {
  it('adds a file, with its folders, and returns its diff', async () => {
    const result = await apply('*** Add File: src/hello.py', '+def hello():', '+    print("hi")');
    expect(content('src/hello.py')).toBe('def hello():\n    print("hi")\n');
    expect(result).toBe(
      [
        'Applied the patch:',
        'A src/hello.py',
        '--- src/hello.py',
        '+++ src/hello.py',
        '@@ -0,0 +1,2 @@',
        '+def hello():',
        '+    print("hi")',
        '',
      ].join('\n'),
    );
  });

  it('updates a file with several hunks, each found after the one before', async () => {
    ws.write('math.py', SOURCE);
    const result = await apply(
      '*** Update File: math.py',
      '@@ def sub(a, b):',
      '-    return a - b',
      '+    return a - b  # unchanged',
      '@@ def mul(a, b):',
      '-    return a / b',
      '+    return a * b',
    );
    expect(content('math.py')).toBe(
      SOURCE.replace('    return a - b\n\n\ndef mul', '    return a - b  # unchanged\n\n\ndef mul').replace(
        'a / b',
        'a * b',
      ),
    );
    expect(content('math.py').split('\n')[1]).toBe('    return a - b');
    expect(result.split('\n').slice(0, 2)).toEqual(['Applied the patch:', 'M math.py']);
  });

  it('matches context that differs in trailing and surrounding whitespace, and keeps CRLF line ends', async () => {
    ws.write('dos.txt', 'one  \r\n  two\r\nthree\r\n');
    await apply('*** Update File: dos.txt', '@@', ' one', ' two', '-three', '+3');
    expect(content('dos.txt')).toBe('one  \r\n  two\r\n3\r\n');
  });

  it('moves a file while changing it', async () => {
    ws.write('old/name.txt', 'alpha\nbeta\n');
    const result = await apply(
      '*** Update File: old/name.txt',
      '*** Move to: new/name.txt',
      '@@',
      ' alpha',
      '-beta',
      '+gamma',
    );
    expect(exists('old/name.txt')).toBe(false);
    expect(content('new/name.txt')).toBe('alpha\ngamma\n');
    expect(result.split('\n')[1]).toBe('R old/name.txt -> new/name.txt');
  });

  it('moves a file without hunks, keeping it byte for byte', async () => {
    ws.write('a.txt', 'no final line end');
    await apply('*** Update File: a.txt', '*** Move to: b.txt');
    expect(exists('a.txt')).toBe(false);
    expect(content('b.txt')).toBe('no final line end');
  });

  it('deletes a file', async () => {
    ws.write('gone.txt', 'bye\n');
    const result = await apply('*** Delete File: gone.txt');
    expect(exists('gone.txt')).toBe(false);
    expect(result.split('\n')[1]).toBe('D gone.txt');
  });

  it('says which file, hunk and line did not match, and changes no file', async () => {
    ws.write('math.py', SOURCE);
    ws.write('other.txt', 'x\n');
    const outcome = await failure(
      apply(
        '*** Update File: other.txt',
        '@@',
        '-x',
        '+y',
        '*** Update File: math.py',
        '@@ def add(a, b):',
        '-    return a - b',
        '+    return a + b',
        '@@',
        ' def mul(a, b):',
        '-    return a // b',
        '+    return a * b',
      ),
    );
    expect(outcome).toEqual({
      code: 'no_match',
      message:
        'The patch does not apply: hunk 2 of "math.py" matches lines 9-9 of the file, then expects its line 2, "    return a // b", at line 10, where the file has "    return a / b". Read the file again and copy its lines exactly into the context (" ") and "-" lines.',
    });
    expect(content('math.py')).toBe(SOURCE);
    expect(content('other.txt')).toBe('x\n');
  });

  it('says when a hunk\'s "@@" line is not in the file', async () => {
    ws.write('math.py', SOURCE);
    expect(await failure(apply('*** Update File: math.py', '@@ def div(a, b):', '-x', '+y'))).toMatchObject({
      code: 'no_match',
      message: expect.stringContaining('hunk 1 of "math.py" starts at "@@ def div(a, b):"'),
    });
  });

  it('refuses to add a file that exists, and to update one that does not', async () => {
    ws.write('here.txt', 'keep\n');
    expect(await failure(apply('*** Add File: here.txt', '+new'))).toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('"here.txt" already exists'),
    });
    expect(content('here.txt')).toBe('keep\n');
    expect((await failure(apply('*** Update File: missing.txt', '@@', '-a', '+b'))).code).toBe('not_found');
  });

  it('refuses paths out of the workspace, absolute ones included, and protected host config, changing nothing', async () => {
    ws.write('a.txt', 'a\n');
    const outside = join(ws.outside, 'evil.txt');
    expect((await failure(apply('*** Add File: ../evil.txt', '+x'))).code).toBe('outside_workspace');
    expect(await failure(apply(`*** Add File: ${outside}`, '+x'))).toMatchObject({
      code: 'outside_workspace',
      message: expect.stringContaining('is outside the workspace'),
    });
    ws.write('.git/config', '[core]\n');
    expect((await failure(apply('*** Update File: .git/config', '@@', '-[core]', '+[evil]'))).code).toBe(
      'git_internals',
    );
    expect(
      (await failure(apply('*** Update File: a.txt', '@@', '-a', '+b', '*** Add File: .vscode/tasks.json', '+{}')))
        .code,
    ).toBe('host_config');
    expect(content('a.txt')).toBe('a\n');
    expect(existsSync(outside)).toBe(false);
    expect(content('.git/config')).toBe('[core]\n');
  });
});
