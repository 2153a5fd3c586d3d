import { describe, expect, it } from 'vitest';
import { createStyle, outputWidth, terminalFeatures } from './terminal.js';

describe('terminalFeatures', () => {
  it('colours and animates a terminal', () => {
    expect(terminalFeatures({ write: () => true, isTTY: true }, {})).toEqual({ color: true, animate: true });
  });

  it('keeps piped output plain, without a spinner', () => {
    expect(terminalFeatures({ write: () => true, isTTY: false }, {})).toEqual({ color: false, animate: false });
  });

  it('honours NO_COLOR on a terminal: no colour and no spinner', () => {
    expect(terminalFeatures({ write: () => true, isTTY: true }, { NO_COLOR: '1' })).toEqual({
      color: false,
      animate: false,
    });
  });

  it('treats TERM=dumb as no terminal', () => {
    expect(terminalFeatures({ write: () => true, isTTY: true }, { TERM: 'dumb' })).toEqual({
      color: false,
      animate: false,
    });
  });

  it('colours a pipe with FORCE_COLOR, still without a spinner', () => {
    expect(terminalFeatures({ write: () => true, isTTY: false }, { FORCE_COLOR: '1' })).toEqual({
      color: true,
      animate: false,
    });
  });
});

describe('createStyle', () => {
  it('returns text unchanged when colour is off', () => {
    expect(createStyle(false).red('x')).toBe('x');
  });
});

describe('outputWidth', () => {
  it('uses the terminal width, with a fallback for pipes', () => {
    expect(outputWidth({ write: () => true, columns: 90 })).toBe(90);
    expect(outputWidth({ write: () => true })).toBe(100);
  });
});
