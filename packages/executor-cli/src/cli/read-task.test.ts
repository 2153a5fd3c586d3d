import { closeSync, openSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { TerminalInput } from '../session/index.js';
import { readTask } from './read-task.js';

function stdin(text: string | undefined, isTTY = false) {
  const stream = new PassThrough() as PassThrough & TerminalInput;
  stream.isTTY = isTTY;
  if (text !== undefined) stream.end(text);
  return stream;
}

describe('readTask', () => {
  it('takes the argument when stdin is a terminal', async () => {
    expect(await readTask('  fix it ', stdin(undefined, true))).toBe('fix it');
  });

  it('reads the task from piped stdin when there is no argument', async () => {
    expect(await readTask(undefined, stdin('summarise this\n'))).toBe('summarise this');
  });

  it('finds no task in an empty pipe', async () => {
    expect(await readTask(undefined, stdin(''))).toBeUndefined();
  });

  it('has no task without an argument on a terminal', async () => {
    expect(await readTask(undefined, stdin(undefined, true))).toBeUndefined();
  });

  it('leaves piped stdin alone beside a task argument', async () => {
    // A file behind the stream, as `agentloop run "fix it" < file` would have.
    const piped = Object.assign(stdin('unrelated input\n'), { fd: openSync(import.meta.filename, 'r') });
    try {
      expect(await readTask('fix it', piped)).toBe('fix it');
    } finally {
      closeSync(piped.fd);
    }
  });

  it('reads the task from piped stdin when the argument is "-"', async () => {
    expect(await readTask('-', stdin('explain this log\nline 1\n'))).toBe('explain this log\nline 1');
  });

  it('has no task for "-" on a terminal', async () => {
    expect(await readTask('-', stdin(undefined, true))).toBeUndefined();
  });
});
