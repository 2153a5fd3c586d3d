import { describe, expect, it } from 'vitest';
import { VirtualTerminal } from '../test-support/index.js';
import { LiveText } from './live-text.js';

describe('LiveText', () => {
  it('writes text that grows as it comes, and erases it whole, wrapped rows included', () => {
    const terminal = new VirtualTerminal(20, 10);
    terminal.write('Above.\n');
    const live = new LiveText(terminal);
    live.show('The quick brown fox');
    live.show('The quick brown fox jumps over the lazy dog');
    expect(terminal.screen).toBe('Above.\nThe quick brown fox\n jumps over the laz\ny dog');
    live.clear();
    expect(terminal.screen).toBe('Above.');
    terminal.write('Replaced.\n');
    expect(terminal.screen).toBe('Above.\nReplaced.');
  });

  it('counts wide characters as two cells when it wraps', () => {
    const terminal = new VirtualTerminal(11, 10);
    const live = new LiveText(terminal);
    live.show('日本語のテキストです');
    expect(terminal.screen).toBe('日本語のテ\nキストです');
    live.clear();
    expect(terminal.screen).toBe('');
  });

  it('redraws when the text changes other than by growing', () => {
    const terminal = new VirtualTerminal(20, 10);
    const live = new LiveText(terminal);
    live.show('| a | b |\npartial');
    live.show('| a | b |\n|---|---|\nrow');
    expect(terminal.screen).toBe('| a | b |\n|---|---|\nrow');
  });

  it('keeps to the screen less one row, showing the end of a longer text, so it can always be erased', () => {
    const terminal = new VirtualTerminal(20, 4);
    terminal.write('Kept.\n');
    const live = new LiveText(terminal);
    live.show('one\ntwo\nthree\nfour\nfive');
    expect(terminal.screen).toBe('Kept.\nthree\nfour\nfive');
    live.clear();
    expect(terminal.screen).toBe('Kept.');
  });

  it('puts text written after clear where the live text began', () => {
    const terminal = new VirtualTerminal(20, 10);
    const live = new LiveText(terminal);
    live.show('still being written');
    live.clear();
    terminal.write('↳ a note\n');
    live.show('still being written');
    expect(terminal.screen).toBe('↳ a note\nstill being written');
  });
});
