import { describe, expect, it } from 'vitest';
import { MemoryOutput, VirtualTerminal } from '../test-support/index.js';
import type { SpinnerClock } from './spinner.js';
import { Spinner } from './spinner.js';
import { createStyle } from './terminal.js';

function fakeClock() {
  let now = 0;
  let tick: (() => void) | undefined;
  const clock: SpinnerClock = {
    setInterval: (callback) => {
      tick = callback;
      return 1;
    },
    clearInterval: () => {
      tick = undefined;
    },
    now: () => now,
  };
  return {
    clock,
    advance(ms: number) {
      now += ms;
      tick?.();
    },
    get ticking() {
      return tick !== undefined;
    },
  };
}

describe('Spinner', () => {
  it('draws a frame and its text at once, then the next frame on each tick', () => {
    const output = new MemoryOutput(true, 80);
    const timer = fakeClock();
    const spinner = new Spinner(output, createStyle(false), timer.clock);
    spinner.start('Working…');
    timer.advance(80);
    expect(output.chunks).toEqual(['\r\x1b[2K⠋ Working…', '\r\x1b[2K⠙ Working…']);
  });

  it('shows the seconds elapsed after the first second', () => {
    const output = new MemoryOutput(true, 80);
    const timer = fakeClock();
    const spinner = new Spinner(output, createStyle(false), timer.clock);
    spinner.start('Working…');
    timer.advance(2100);
    expect(output.chunks.at(-1)).toBe('\r\x1b[2K⠙ Working… 2s');
  });

  it('changes its text without restarting its timer', () => {
    const output = new MemoryOutput(true, 80);
    const timer = fakeClock();
    const spinner = new Spinner(output, createStyle(false), timer.clock);
    spinner.start('one');
    timer.advance(1500);
    spinner.start('two');
    expect(output.chunks.at(-1)).toBe('\r\x1b[2K⠹ two 1s');
  });

  it('clears its line and its timer when stopped, once', () => {
    const output = new MemoryOutput(true, 80);
    const timer = fakeClock();
    const spinner = new Spinner(output, createStyle(false), timer.clock);
    spinner.start('Working…');
    spinner.stop();
    spinner.stop();
    expect(output.chunks.slice(1)).toEqual(['\r\x1b[2K']);
    expect(timer.ticking).toBe(false);
    expect(spinner.active).toBe(false);
  });

  it('cuts text to the terminal width', () => {
    const output = new MemoryOutput(true, 20);
    const spinner = new Spinner(output, createStyle(false), fakeClock().clock);
    spinner.start('a'.repeat(40));
    expect(output.chunks[0]).toBe(`\r\x1b[2K⠋ ${'a'.repeat(11)}…`);
  });

  it('writes lines above itself and goes on spinning with the same timer', () => {
    const terminal = new VirtualTerminal(40, 10);
    const timer = fakeClock();
    const spinner = new Spinner(terminal, createStyle(false), timer.clock);
    spinner.start('Running slow_tool…');
    timer.advance(2000);
    spinner.printAbove('↳ queued: and then?\n');
    expect(terminal.screen).toBe('↳ queued: and then?\n⠹ Running slow_tool… 2s');
    expect(timer.ticking).toBe(true);
  });
});
