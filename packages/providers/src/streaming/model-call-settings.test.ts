import { describe, expect, it } from 'vitest';
import { modelCallSettings } from './model-call-settings.js';

describe('modelCallSettings', () => {
  it("takes the provider's default idle timeout when its options give none", () => {
    expect(modelCallSettings({}, 60_000)).toEqual({
      retry: undefined,
      idleTimeoutMs: 60_000,
      sleep: undefined,
      random: undefined,
    });
  });

  it('takes the idle timeout, retry policy, sleep and jitter the options give', () => {
    const sleep = async () => {};
    const random = () => 0.5;
    expect(modelCallSettings({ idleTimeoutMs: 5_000, retry: { maxRetries: 1 }, sleep, random }, 60_000)).toEqual({
      retry: { maxRetries: 1 },
      idleTimeoutMs: 5_000,
      sleep,
      random,
    });
    expect(modelCallSettings({ idleTimeoutMs: 0 }, 60_000).idleTimeoutMs).toBe(0);
  });

  it('gives a call that is not streamed no idle timeout, whatever the options say', () => {
    expect(modelCallSettings({ streaming: false, idleTimeoutMs: 5_000 }, 60_000).idleTimeoutMs).toBe(0);
    expect(modelCallSettings({ streaming: true }, 300_000).idleTimeoutMs).toBe(300_000);
  });
});
