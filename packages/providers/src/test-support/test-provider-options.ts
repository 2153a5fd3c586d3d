import type { Sleep } from '@agentloop/provider-utils';
import { instantSleep } from './model-requests.js';

/** The options every provider test passes, whatever the vendor. */
export interface TestProviderOptions {
  apiKey: string;
  baseURL: string;
  /** Returns at once, recording the wait in `waits`. */
  sleep: Sleep;
  /** Fixed jitter, so that retry waits are exact. */
  random: () => number;
  /** Keeps the SDK from logging the failures a test provokes. */
  clientOptions: { logLevel: 'off' };
}

/**
 * Options for a provider talking to a FixtureServer at `baseURL` (no real waits, fixed jitter, a quiet
 * SDK), and the waits its retries asked for.
 */
export function testProviderOptions(baseURL: string): { options: TestProviderOptions; waits: number[] } {
  const { sleep, waits } = instantSleep();
  return {
    options: { apiKey: 'test-key', baseURL, sleep, random: () => 0.5, clientOptions: { logLevel: 'off' } },
    waits,
  };
}
