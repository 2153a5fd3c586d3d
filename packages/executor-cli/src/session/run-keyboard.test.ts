import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { TerminalInput } from './line-reader.js';
import { RunKeyboard } from './run-keyboard.js';

/** A stand-in for a terminal's stdin that records raw-mode switches. */
function fakeTerminal() {
  const input = new PassThrough() as PassThrough & TerminalInput & { rawModes: boolean[] };
  input.isTTY = true;
  input.rawModes = [];
  input.setRawMode = (mode: boolean) => input.rawModes.push(mode);
  return input;
}

function keyboard() {
  const input = fakeTerminal();
  const lines: string[] = [];
  let interrupts = 0;
  const board = new RunKeyboard(input, { onInterrupt: () => interrupts++, onLine: (text) => lines.push(text) });
  board.start();
  return { input, board, lines, interrupts: () => interrupts };
}

describe('RunKeyboard', () => {
  it('hands over a line typed and sent with Enter', () => {
    const { input, lines } = keyboard();
    input.write('also run the tests\r');
    expect(lines).toEqual(['also run the tests']);
  });

  it('lets backspace correct the text', () => {
    const { input, lines } = keyboard();
    input.write('tesx\x7ft\r');
    expect(lines).toEqual(['test']);
  });

  it('reports Ctrl-C as an interrupt', () => {
    const { input, interrupts, lines } = keyboard();
    input.write('\x03');
    input.write('\x03');
    expect(interrupts()).toBe(2);
    expect(lines).toEqual([]);
  });

  it('switches raw mode on while listening and off when stopped, returning unsent text', () => {
    const { input, board } = keyboard();
    input.write('half typed');
    expect(board.stop()).toBe('half typed');
    expect(input.rawModes).toEqual([true, false]);
  });

  it('leaves the keys to a prompt while paused, keeping the text typed before, and takes them back', () => {
    const { input, board, lines, interrupts } = keyboard();
    input.write('also ');
    board.pause();
    input.write('y\x03');
    board.resume();
    input.write('lint\r');
    expect(lines).toEqual(['also lint']);
    expect(interrupts()).toBe(0);
    expect(input.rawModes).toEqual([true, true]);
  });

  it('does nothing off a terminal', () => {
    const input = new PassThrough() as PassThrough & TerminalInput;
    const lines: string[] = [];
    const board = new RunKeyboard(input, { onInterrupt: () => undefined, onLine: (text) => lines.push(text) });
    board.start();
    input.write('text\r');
    expect(board.stop()).toBe('');
    expect(lines).toEqual([]);
  });
});
