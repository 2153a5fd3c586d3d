import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MemoryOutput } from '../test-support/index.js';
import type { TerminalInput } from './line-reader.js';
import { TerminalLineReader } from './line-reader.js';

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
});
