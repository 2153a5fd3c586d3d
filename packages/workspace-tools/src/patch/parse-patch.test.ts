import { describe, expect, it } from 'vitest';
import { parsePatch } from './parse-patch.js';

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

function problem(text: string): { code: unknown; message: string } {
  try {
    parsePatch(text);
  } catch (error) {
    return { code: (error as { code?: unknown }).code, message: (error as Error).message };
  }
  throw new Error('parsePatch did not throw');
}

describe('parsePatch', () => {
  it('reads add, delete, update with a move, and hunks with and without "@@" context', () => {
    expect(
      parsePatch(
        patch(
          '*** Add File: a.txt',
          '+one',
          '+two',
          '*** Delete File: b.txt',
          '*** Update File: c.py',
          '*** Move to: d.py',
          '@@ def main():',
          ' keep',
          '-old',
          '+new',
          '',
          '@@',
          '+appended',
          '*** End of File',
        ),
      ),
    ).toEqual([
      { kind: 'add', path: 'a.txt', content: 'one\ntwo\n' },
      { kind: 'delete', path: 'b.txt' },
      {
        kind: 'update',
        path: 'c.py',
        moveTo: 'd.py',
        hunks: [
          {
            context: 'def main():',
            lines: [
              { kind: 'context', text: 'keep' },
              { kind: 'remove', text: 'old' },
              { kind: 'add', text: 'new' },
              { kind: 'context', text: '' },
            ],
            endOfFile: false,
          },
          { context: undefined, lines: [{ kind: 'add', text: 'appended' }], endOfFile: true },
        ],
      },
    ]);
  });

  it('takes a patch wrapped in a shell heredoc, and a first hunk without "@@"', () => {
    expect(parsePatch(`apply_patch <<'EOF'\n${patch('*** Update File: a.txt', '-x', '+y')}\nEOF\n`)).toEqual([
      {
        kind: 'update',
        path: 'a.txt',
        moveTo: undefined,
        hunks: [
          {
            context: undefined,
            lines: [
              { kind: 'remove', text: 'x' },
              { kind: 'add', text: 'y' },
            ],
            endOfFile: false,
          },
        ],
      },
    ]);
  });

  it('reads a unified diff\'s "@@ -1,2 +1,2 @@" header as a bare "@@", and keeps a named one', () => {
    const [update] = parsePatch(
      patch('*** Update File: a.txt', '@@ -1,2 +1,2 @@ def main():', '-x', '+y', '@@ class A:', '-z', '+w'),
    );
    expect(update).toMatchObject({ hunks: [{ context: undefined }, { context: 'class A:' }] });
  });

  it('keeps a context line that holds "*** " in the hunk', () => {
    const [update] = parsePatch(patch('*** Update File: notes.md', '@@', ' *** Begin Patch', '-a', '+b'));
    expect(update).toMatchObject({
      hunks: [
        { lines: [{ kind: 'context', text: '*** Begin Patch' }, { kind: 'remove', text: 'a' }, { kind: 'add' }] },
      ],
    });
  });

  it('says what is wrong with a patch it cannot read', () => {
    expect(problem('*** Update File: a.txt\n-x\n+y\n*** End Patch')).toMatchObject({
      code: 'invalid_patch',
      message: expect.stringMatching(/^The patch cannot be read: the first line must be "\*\*\* Begin Patch"\./),
    });
    expect(problem('*** Begin Patch\n*** Update File: a.txt\n-x')).toMatchObject({
      message: expect.stringContaining('the last line must be "*** End Patch"'),
    });
    expect(problem(patch('*** Update File: a.txt', '@@', 'x'))).toMatchObject({
      message: expect.stringContaining(
        'line 4 of the hunk for "a.txt" ("x") must start with " " (context), "-" (remove) or "+" (add)',
      ),
    });
    expect(problem(patch('*** Change File: a.txt'))).toMatchObject({
      message: expect.stringContaining('line 2 ("*** Change File: a.txt") is not a file operation'),
    });
    expect(problem(patch('*** Update File: a.txt'))).toMatchObject({
      message: expect.stringContaining('has no hunk'),
    });
    expect(problem(patch())).toMatchObject({ message: expect.stringContaining('it changes no file') });
  });
});
