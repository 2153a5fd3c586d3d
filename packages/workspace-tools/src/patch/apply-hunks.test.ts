import { describe, expect, it } from 'vitest';
import { applyHunks } from './apply-hunks.js';
import type { PatchHunk, PatchLine } from './parse-patch.js';

const context = (text: string): PatchLine => ({ kind: 'context', text });
const remove = (text: string): PatchLine => ({ kind: 'remove', text });
const add = (text: string): PatchLine => ({ kind: 'add', text });
const hunk = (lines: PatchLine[], options: Partial<PatchHunk> = {}): PatchHunk => ({
  context: undefined,
  lines,
  endOfFile: false,
  ...options,
});

describe('applyHunks', () => {
  it('forgives indentation and typographic punctuation in the lines it removes', () => {
    const before = 'const title = “Hello” – world;\n    return 1;\n';
    const after = applyHunks('a.js', before, [
      hunk([remove('const title = "Hello" - world;'), add('const title = "Hi";'), context('return 1;')]),
    ]);
    expect(after).toBe('const title = "Hi";\n    return 1;\n');
  });

  it('appends the lines of a hunk that expects none, and anchors an End of File hunk at the end', () => {
    expect(applyHunks('a.txt', 'one\n', [hunk([add('two')])])).toBe('one\ntwo\n');
    const before = 'x\nend\nx\nend\n';
    expect(applyHunks('a.txt', before, [hunk([context('x'), remove('end'), add('done')], { endOfFile: true })])).toBe(
      'x\nend\nx\ndone\n',
    );
  });

  it('takes a last empty context line for the final line end of the file', () => {
    expect(applyHunks('a.txt', 'a\nb', [hunk([remove('b'), add('c'), context('')])])).toBe('a\nc\n');
  });

  it('says the hunk, the line it expected and what the file has there', () => {
    expect(() =>
      applyHunks('a.txt', 'one\ntwo\nthree\n', [hunk([context('one'), context('two'), remove('four'), add('4')])]),
    ).toThrow(
      'The patch does not apply: hunk 1 of "a.txt" matches lines 1-2 of the file, then expects its line 3, "four", at line 3, where the file has "three".',
    );
  });
});
