import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, createTempWorkspace, failure, type TempWorkspace } from '../test-support/temp-workspace.js';
import { createSearchTool, SEARCH_PAGE_SIZE } from './search-tool.js';

const searchTool = createSearchTool();

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace();
  ws.write('src/app.ts', 'import { add } from "./math";\n\nconsole.log(add(1, 2));\r\n');
  ws.write('src/math.ts', 'export function add(a: number, b: number) {\n  return a + b;\n}\n');
  ws.write('README.md', 'Call add() to add.\n');
});
afterEach(() => ws.remove());

const search = (args: Record<string, unknown>) => call(searchTool, args, ws.context());

describe('search', () => {
  it('finds the lines a regular expression matches, as path:line: text', async () => {
    expect(await search({ pattern: 'add\\(' })).toBe(
      [
        'README.md:1: Call add() to add.',
        'src/app.ts:3: console.log(add(1, 2));',
        'src/math.ts:1: export function add(a: number, b: number) {',
      ].join('\n'),
    );
  });

  it('limits the files with a glob and a path, and ignores case when asked', async () => {
    expect(await search({ pattern: 'ADD', ignore_case: true, glob: '*.md' })).toBe('README.md:1: Call add() to add.');
    expect(await search({ pattern: 'return', path: 'src' })).toBe('src/math.ts:2: return a + b;');
    expect(await search({ pattern: 'return', path: 'src/math.ts' })).toBe('src/math.ts:2: return a + b;');
  });

  it('says when nothing matches', async () => {
    expect(await search({ pattern: 'subtract' })).toBe('No matches for "subtract" in "." (3 files searched).');
  });

  it('honours .gitignore, and include_ignored searches it too', async () => {
    ws.write('.gitignore', 'build/\n');
    ws.write('build/app.js', 'console.log(add(1, 2));\n');
    expect(await search({ pattern: 'console' })).toBe('src/app.ts:3: console.log(add(1, 2));');
    expect(await search({ pattern: 'console', include_ignored: true })).toBe(
      'build/app.js:1: console.log(add(1, 2));\nsrc/app.ts:3: console.log(add(1, 2));',
    );
  });

  it('skips binary files and files of the deny-list, and says so', async () => {
    writeFileSync(join(ws.workspace, 'data.bin'), Buffer.from('add\0add'));
    ws.write('.env', 'ADD_TOKEN=secret-value\n');
    const result = await search({ pattern: 'add', ignore_case: true });
    expect(result).not.toContain('secret-value');
    expect(result.split('\n').at(-1)).toBe('[files not searched: 1 on the deny-list, 1 binary]');
  });

  it('never reads through a link', async () => {
    writeFileSync(join(ws.outside, 'secret.txt'), 'add the secret\n');
    symlinkSync(join(ws.outside, 'secret.txt'), join(ws.workspace, 'linked.txt'));
    expect(await search({ pattern: 'secret' })).toBe('No matches for "secret" in "." (3 files searched).');
  });

  it('pages through many matches', async () => {
    ws.write('many.txt', 'match\n'.repeat(SEARCH_PAGE_SIZE + 20));
    const first = (await search({ pattern: '^match$' })).split('\n');
    expect(first).toHaveLength(SEARCH_PAGE_SIZE + 1);
    expect(first.at(-1)).toBe('[matches 1-100 of 120; call again with offset 100 for more]');
    const second = (await search({ pattern: '^match$', offset: 100 })).split('\n');
    expect(second[0]).toBe('many.txt:101: match');
    expect(second.at(-1)).toBe('[matches 101-120 of 120]');
  });

  it('cuts a very long matching line', async () => {
    ws.write('min.js', `${'x'.repeat(1000)}add\n`);
    const line = await search({ pattern: 'add', glob: '*.js' });
    expect(line).toBe(`min.js:1: ${'x'.repeat(300)}…`);
  });

  it('refuses an invalid expression, saying which syntax it takes', async () => {
    const { code, message } = await failure(search({ pattern: '(?<=a)b' }));
    expect(code).toBe('invalid_request');
    expect(message).toContain('pattern is not a valid regular expression');
    expect(message).toContain('without lookaround or backreferences');
  });

  it('matches in linear time: a pattern that makes a backtracking engine hang ends', async () => {
    ws.write('redos.txt', `${'a'.repeat(50_000)}!\n`);
    expect(await search({ pattern: '(a+)+$', glob: 'redos.txt' })).toBe(
      'No matches for "(a+)+$" in "." (1 file searched).',
    );
  });
});
