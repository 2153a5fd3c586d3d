import { describe, expect, it } from 'vitest';
import { checkedLoopSettings } from './checked-options.js';

describe('checkedLoopSettings', () => {
  // The numbers are the ones the core README's options table and AgentOptions' JSDoc promise.
  it('fills in the documented defaults', () => {
    expect(checkedLoopSettings({})).toEqual({
      maxIterations: 10,
      onMaxIterations: 'wrap-up',
      maxParallelTools: 4,
      maxToolResultChars: 100_000,
      toolTimeoutMs: 300_000,
    });
  });

  it('keeps every setting given, under the option name', () => {
    const settings = { maxTokens: 512 };
    expect(
      checkedLoopSettings({
        maxIterations: 3,
        onMaxIterations: 'stop',
        maxParallelTools: Number.POSITIVE_INFINITY,
        parallelToolCalls: false,
        maxToolResultChars: 20,
        toolTimeoutMs: 0,
        settings,
      }),
    ).toEqual({
      maxIterations: 3,
      onMaxIterations: 'stop',
      maxParallelTools: Number.POSITIVE_INFINITY,
      parallelToolCalls: false,
      maxToolResultChars: 20,
      toolTimeoutMs: 0,
      settings,
    });
  });

  it('refuses a maxToolResultChars that is not a whole number of at least 1, saying what it takes', () => {
    for (const value of [0, -5, 2.5, Number.NaN]) {
      expect(() => checkedLoopSettings({ maxToolResultChars: value })).toThrow(
        `maxToolResultChars must be a whole number of characters, at least 1, or Infinity, got ${value}.`,
      );
    }
    expect(() => checkedLoopSettings({ maxToolResultChars: '100' as unknown as number })).toThrow('got "100".');
    expect(checkedLoopSettings({ maxToolResultChars: Number.POSITIVE_INFINITY }).maxToolResultChars).toBe(
      Number.POSITIVE_INFINITY,
    );
  });

  it('refuses a toolTimeoutMs below 0 or not a number, saying that 0 never times out', () => {
    for (const value of [-1, Number.NaN]) {
      expect(() => checkedLoopSettings({ toolTimeoutMs: value })).toThrow(
        `toolTimeoutMs must be a number of milliseconds, 0 or more (0 never times out), got ${value}.`,
      );
    }
    expect(() => checkedLoopSettings({ toolTimeoutMs: '30s' as unknown as number })).toThrow('got "30s".');
    expect(checkedLoopSettings({ toolTimeoutMs: Number.POSITIVE_INFINITY }).toolTimeoutMs).toBe(
      Number.POSITIVE_INFINITY,
    );
  });

  it('names the option and the value in the error code invalid_option', () => {
    expect(() => checkedLoopSettings({ maxIterations: 1.5 })).toThrow(
      expect.objectContaining({
        code: 'invalid_option',
        message: 'maxIterations must be a whole number of at least 1, got 1.5.',
      }),
    );
  });
});
