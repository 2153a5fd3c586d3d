import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MemoryOutput } from '../test-support/index.js';
import type { TerminalInput } from './line-reader.js';
import { TerminalLineReader } from './line-reader.js';
import { PromptHistory } from './prompt-history.js';

/** A keyboard: a stream that says it is a terminal, as readline needs for line editing. */
function keyboard(): PassThrough & TerminalInput {
  return Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
}

describe('TerminalLineReader', () => {
  it('reads a line typed at the prompt', async () => {
    const input = keyboard();
    const reader = new TerminalLineReader(input, new MemoryOutput(true));
    const reading = reader.read('› ');
    input.write('hello\r');
    expect(await reading).toEqual({ type: 'line', text: 'hello' });
  });

  it('ends the prompt line on Ctrl-D, so what is written next starts on a line of its own', async () => {
    const input = keyboard();
    const output = new MemoryOutput(true);
    const reader = new TerminalLineReader(input, output);
    const reading = reader.read('› ');
    input.write('\x04');
    expect(await reading).toEqual({ type: 'end' });
    expect(output.text).toMatch(/› .*\n$/);
  });

  it('recalls the lines of earlier sessions with Up, and keeps the lines read', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'agentloop-history-'));
    try {
      const file = join(directory, 'history');
      writeFileSync(file, 'an older task\nthe last task\n');
      const input = keyboard();
      const reader = new TerminalLineReader(input, new MemoryOutput(true), new PromptHistory({ file }));
      const reading = reader.read('› ');
      input.write('\x1b[A\x1b[A\r');
      expect(await reading).toEqual({ type: 'line', text: 'an older task' });
      expect(readFileSync(file, 'utf8')).toBe('an older task\nthe last task\nan older task\n');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
