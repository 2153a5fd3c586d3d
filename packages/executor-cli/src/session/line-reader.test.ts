import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Completion, PromptCompleter } from '../completion/index.js';
import { MemoryOutput } from '../test-support/index.js';
import type { TerminalInput } from './line-reader.js';
import { createLineReader, TerminalLineReader } from './line-reader.js';
import { PromptHistory } from './prompt-history.js';

/** A keyboard: a stream that says it is a terminal, as readline needs for line editing. */
function keyboard(): PassThrough & TerminalInput {
  return Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
}

/** A completer the test answers by hand: `asked` resolves with the line when Tab asks. */
function handCompleter() {
  let answer: (completion: Completion) => void = () => {};
  let asked: (line: string) => void = () => {};
  const askedLine = new Promise<string>((resolve) => (asked = resolve));
  const complete: PromptCompleter = (line) => {
    asked(line);
    return new Promise((resolve) => (answer = resolve));
  };
  return { complete, askedLine, answer: (completion: Completion) => answer(completion) };
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

  it('completes the word before the cursor with Tab', async () => {
    const input = keyboard();
    const completer = handCompleter();
    const reader = new TerminalLineReader(input, new MemoryOutput(true), undefined, completer.complete);
    const reading = reader.read('› ');
    input.write('/he\t');
    expect(await completer.askedLine).toBe('/he');
    completer.answer([['/help '], '/he']);
    await Promise.resolve();
    input.write('\r');
    expect(await reading).toEqual({ type: 'line', text: '/help ' });
  });

  it('drops a completion that comes after the read ended, leaving the input to whoever reads next', async () => {
    const input = keyboard();
    const output = new MemoryOutput(true);
    const completer = handCompleter();
    const reader = new TerminalLineReader(input, output, undefined, completer.complete);
    const abort = new AbortController();
    const reading = reader.read('› ', { signal: abort.signal });
    input.write('@ev\t');
    await completer.askedLine;
    abort.abort();
    expect(await reading).toEqual({ type: 'end' });
    const written = output.text;
    completer.answer([['@everything:'], '@ev']);
    await Promise.resolve();
    expect(output.text).toBe(written);
    expect(input.isPaused()).toBe(true);
  });
});

describe('createLineReader', () => {
  it('leaves a pipe’s lines as they are: a Tab in one is text, not a completion', async () => {
    const input = new PassThrough();
    let asked = false;
    const reader = createLineReader(input, new MemoryOutput(false), undefined, async (line) => {
      asked = true;
      return [['/help '], line];
    });
    input.end('/he\tlp\n');
    expect(await reader.read('› ')).toEqual({ type: 'line', text: '/he\tlp' });
    expect(asked).toBe(false);
    reader.close();
  });
});
