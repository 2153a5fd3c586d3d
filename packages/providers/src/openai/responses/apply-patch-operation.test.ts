import { describe, expect, it } from 'vitest';
import { applyPatchEnvelope } from './apply-patch-operation.js';

describe('applyPatchEnvelope', () => {
  it('wraps a create_file diff as an Add File section', () => {
    expect(applyPatchEnvelope({ type: 'create_file', path: 'notes.md', diff: '+# Notes\n+\n+- one\n' })).toBe(
      '*** Begin Patch\n*** Add File: notes.md\n+# Notes\n+\n+- one\n*** End Patch\n',
    );
  });

  it('wraps an update_file diff as an Update File section with its hunks as they are', () => {
    expect(
      applyPatchEnvelope({ type: 'update_file', path: 'src/a.ts', diff: '@@ function main\n-  old();\n+  fresh();\n' }),
    ).toBe('*** Begin Patch\n*** Update File: src/a.ts\n@@ function main\n-  old();\n+  fresh();\n*** End Patch\n');
  });

  it('writes a delete_file as a Delete File line, ignoring any diff', () => {
    expect(applyPatchEnvelope({ type: 'delete_file', path: 'old.txt', diff: 'ignored' })).toBe(
      '*** Begin Patch\n*** Delete File: old.txt\n*** End Patch\n',
    );
  });

  it('keeps an unknown operation type in its section line, for the tool to reject where the model sees it', () => {
    expect(applyPatchEnvelope({ type: 'move_file', path: 'a.txt' })).toBe(
      '*** Begin Patch\n*** move_file: a.txt\n*** End Patch\n',
    );
  });

  it('leaves out the End Patch line of a diff the response cut off, so that the tool refuses it', () => {
    expect(applyPatchEnvelope({ type: 'create_file', path: 'notes.md', diff: '+# No' }, { cutOff: true })).toBe(
      '*** Begin Patch\n*** Add File: notes.md\n+# No\n',
    );
  });
});
